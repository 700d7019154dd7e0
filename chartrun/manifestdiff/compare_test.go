package manifestdiff

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values/mask"
)

const deployment = `---
# Source: m/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %s
`

const configMap = `---
# Source: m/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ns
data:
  a: "1"
`

const hook = `---
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-upgrade
`

func TestCompare(t *testing.T) {
	replicas := func(n string) string { return strings.Replace(deployment, "%s", n, 1) }
	tests := []struct {
		name          string
		before, after string
		want          []Change
		diffHas       []string
	}{
		{name: "same objects in another order and layout", before: replicas("1") + configMap,
			after: strings.ReplaceAll(configMap, "  a: \"1\"", "  a: '1'") + replicas("1")},
		{name: "replicas changed", before: replicas("1"), after: replicas("3"),
			want:    []Change{{Object: "Deployment/web", Action: Changed}},
			diffHas: []string{"-  replicas: 1\n", "+  replicas: 3\n", "--- Deployment/web\n"}},
		{name: "object added and removed", before: replicas("1"), after: configMap,
			want:    []Change{{Object: "ConfigMap/ns/settings", Action: Added}, {Object: "Deployment/web", Action: Removed}},
			diffHas: []string{"+kind: ConfigMap\n", "-kind: Deployment\n"}},
		{name: "helm hooks left out", before: replicas("2"), after: replicas("2") + hook},
		{name: "nothing before", before: "", after: configMap,
			want: []Change{{Object: "ConfigMap/ns/settings", Action: Added}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Compare(tc.before, tc.after, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d changes %+v, want %+v", len(got), got, tc.want)
			}
			var diffs strings.Builder
			for i, c := range got {
				if c.Object != tc.want[i].Object || c.Action != tc.want[i].Action {
					t.Errorf("change %d: %s %s, want %s %s", i, c.Object, c.Action, tc.want[i].Object, tc.want[i].Action)
				}
				diffs.WriteString(c.Diff)
			}
			for _, s := range tc.diffHas {
				if !strings.Contains(diffs.String(), s) {
					t.Errorf("diffs lack %q:\n%s", s, diffs.String())
				}
			}
		})
	}
}

func TestObjectsNamesTheBadDocument(t *testing.T) {
	_, err := Objects("---\nkind: ConfigMap\nmetadata: [\n", nil)
	if err == nil || !strings.Contains(err.Error(), `"kind: ConfigMap"`) {
		t.Fatalf("error %v, want one naming the document", err)
	}
}

const secretDoc = `---
apiVersion: v1
kind: Secret
metadata:
  name: creds
  namespace: ns
data:
  token: %s
stringData:
  password: plain-marker-1
`

const passwordConfigMap = `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  namespace: ns
data:
  DB_PASSWORD: pw-marker-%s
  DB_URL: postgres://app:pw-marker-%s@db:5432
  MODE: fast
`

// Neither side of a diff shows a Secret's data or a password setting's
// value; a changed value shows as two different masks.
func TestCompareMasks(t *testing.T) {
	secret := func(v string) string { return strings.Replace(secretDoc, "%s", v, 1) }
	cm := func(v string) string { return strings.ReplaceAll(passwordConfigMap, "%s", v) }
	secrets := mask.Secrets{"pw-marker-1", "pw-marker-2"}
	got, err := Compare(secret("ZGF0YS1tYXJrZXItMQ==")+cm("1"), secret("ZGF0YS1tYXJrZXItMg==")+cm("2"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	var diffs strings.Builder
	for _, c := range got {
		diffs.WriteString(c.Diff)
	}
	for _, value := range []string{"marker", "ZGF0YS1tYXJrZXIt"} {
		if strings.Contains(diffs.String(), value) {
			t.Errorf("diffs show %q:\n%s", value, diffs.String())
		}
	}
	for _, want := range []string{
		"-  token: " + mask.String("data-marker-1"), "+  token: " + mask.String("data-marker-2"),
		"-  DB_PASSWORD: " + mask.String("pw-marker-1"), "+  DB_PASSWORD: " + mask.String("pw-marker-2"),
		"   MODE: fast",
	} {
		if !strings.Contains(diffs.String(), want) {
			t.Errorf("diffs lack %q:\n%s", want, diffs.String())
		}
	}
	if len(got) != 2 {
		t.Fatalf("want both objects changed, got %+v", got)
	}
}
