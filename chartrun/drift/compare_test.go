package drift_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

// TestCompareScalars checks each normalisation of the apiserver both ways: values it stores
// differently but means the same are equal, other values drift.
func TestCompareScalars(t *testing.T) {
	cases := []struct {
		name           string
		rendered, live any
		equal          bool
	}{
		{"number float vs int64", float64(3), int64(3), true},
		{"number float vs float", 3.0, float64(3), true},
		{"number int64 vs float", int64(3), 3.0, true},
		{"number fraction", 0.5, 0.5, true},
		{"number changed", float64(3), int64(5), false},
		{"number fraction changed", 0.5, 0.25, false},
		{"quantity 0.5 vs 500m", "0.5", "500m", true},
		{"quantity 500m vs 0.5", "500m", "0.5", true},
		{"quantity number 1 vs string", float64(1), "1", true},
		{"quantity string 1 vs number", "1", int64(1), true},
		{"quantity number 0.5 vs 500m", 0.5, "500m", true},
		{"quantity 1Gi vs 1024Mi", "1Gi", "1024Mi", true},
		{"quantity 1024Mi vs 1Gi", "1024Mi", "1Gi", true},
		{"quantity 1000m vs 1", "1000m", "1", true},
		{"quantity 1 vs 1000m", "1", "1000m", true},
		{"quantity changed", "1Gi", "2Gi", false},
		{"quantity 500m vs 0.6", "500m", "0.6", false},
		{"quantity number vs other amount", float64(2), "1500m", false},
		{"words equal", "fast", "fast", true},
		{"words differ", "fast", "slow", false},
		{"word vs quantity", "fast", "1", false},
		{"int-or-string number vs string", float64(8080), "8080", true},
		{"int-or-string string vs int64", "8080", int64(8080), true},
		{"int-or-string named port", "http", "http", true},
		{"int-or-string name vs number", "http", int64(80), false},
		{"int-or-string number vs name", float64(80), "http", false},
		{"int-or-string other port", "8080", int64(8081), false},
		{"bool equal", true, true, true},
		{"bool changed", false, true, false},
		{"bool vs string", true, "true", false},
		{"trailing newline added", "a", "a\n", false},
		{"trailing newline removed", "a\n", "a", false},
		{"trailing newline on a quantity", "1", "1\n", false},
		{"empty string vs value", "", "x", false},
		{"zero vs value", float64(0), int64(2), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rendered := map[string]any{"spec": map[string]any{"value": c.rendered}}
			live := map[string]any{"spec": map[string]any{"value": c.live}}
			var wants []want
			if !c.equal {
				wants = []want{{path: "spec.value", rendered: c.rendered, live: c.live}}
			}
			checkFields(t, drift.Compare(rendered, live, nil), wants)
		})
	}
}

// TestCompareEmpty checks that a manifest's empty value the apiserver dropped is not drift,
// and that a value that is not empty is.
func TestCompareEmpty(t *testing.T) {
	cases := []struct {
		name     string
		rendered any
		drift    bool
	}{
		{"null", nil, false},
		{"empty map", map[string]any{}, false},
		{"empty list", []any{}, false},
		{"empty string", "", false},
		{"false", false, false},
		{"zero", float64(0), false},
		{"map of empty values", map[string]any{"limits": map[string]any{}, "name": ""}, false},
		{"string", "x", true},
		{"true", true, true},
		{"number", float64(1), true},
		{"list", []any{"a"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rendered := map[string]any{"spec": map[string]any{"value": c.rendered}}
			live := map[string]any{"spec": map[string]any{"other": "x"}}
			var wants []want
			if c.drift {
				wants = []want{{path: "spec.value", rendered: c.rendered, missing: true}}
			}
			checkFields(t, drift.Compare(rendered, live, nil), wants)
		})
	}
}

func TestCompareStructure(t *testing.T) {
	cases := []struct {
		name, rendered, live string
		ignore               []string
		wants                []want
	}{{
		name:     "key order does not matter",
		rendered: `{"spec": {"a": 1, "b": {"c": 2, "d": 3}}}`,
		live:     `{"spec": {"b": {"d": 3, "c": 2}, "a": 1}}`,
	}, {
		name:     "live extra keys at any depth are defaults",
		rendered: "spec:\n  a:\n    b:\n      c: 1\n",
		live:     "spec:\n  x: 1\n  a:\n    y: [1]\n    b:\n      c: 1\n      z: {q: 1}\n",
	}, {
		name:     "nested map value changed",
		rendered: "spec:\n  a:\n    b:\n      c: one\n      d: same\n",
		live:     "spec:\n  a:\n    b:\n      c: two\n      d: same\n",
		wants:    []want{{path: "spec.a.b.c", rendered: "one", live: "two"}},
	}, {
		name:     "nested map the live object lacks",
		rendered: "spec:\n  a:\n    b:\n      c: one\n      d: two\n",
		live:     "spec:\n  a: {}\n",
		wants: []want{
			{path: "spec.a.b.c", rendered: "one", missing: true},
			{path: "spec.a.b.d", rendered: "two", missing: true},
		},
	}, {
		name:     "list element field changed",
		rendered: "spec:\n  items:\n  - name: a\n    port: 80\n  - name: b\n    port: 81\n",
		live:     "spec:\n  items:\n  - name: a\n    port: 80\n    protocol: TCP\n  - name: b\n    port: 82\n    protocol: TCP\n",
		wants:    []want{{path: "spec.items[1].port", rendered: float64(81), live: int64(82)}},
	}, {
		name:     "list of scalars element changed",
		rendered: "spec:\n  args: [--a, --b]\n",
		live:     "spec:\n  args: [--a, --c]\n",
		wants:    []want{{path: "spec.args[1]", rendered: "--b", live: "--c"}},
	}, {
		name:     "list grown",
		rendered: "spec:\n  args: [--a]\n",
		live:     "spec:\n  args: [--a, --b]\n",
		wants:    []want{{path: "spec.args", rendered: []any{"--a"}, live: []any{"--a", "--b"}}},
	}, {
		name:     "list shrunk",
		rendered: "spec:\n  args: [--a, --b]\n",
		live:     "spec:\n  args: [--a]\n",
		wants:    []want{{path: "spec.args", rendered: []any{"--a", "--b"}, live: []any{"--a"}}},
	}, {
		name:     "list the live object lacks",
		rendered: "spec:\n  args: [--a]\n",
		live:     "spec: {}\n",
		wants:    []want{{path: "spec.args", rendered: []any{"--a"}, missing: true}},
	}, {
		name:     "map replaced by a string",
		rendered: "spec:\n  a:\n    b: 1\n",
		live:     "spec:\n  a: text\n",
		wants:    []want{{path: "spec.a", rendered: map[string]any{"b": float64(1)}, live: "text"}},
	}, {
		name:     "status, apiVersion, kind and metadata other than labels and annotations are skipped",
		rendered: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: a\n  finalizers: [x]\n  generation: 1\nstatus:\n  replicas: 3\n",
		live: "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata:\n  name: web\n  namespace: b\n  uid: 1-2\n  resourceVersion: \"42\"\n" +
			"  generation: 7\n  creationTimestamp: \"2024-01-01T00:00:00Z\"\n  managedFields: [{manager: helm}]\nstatus:\n  replicas: 1\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := drift.Compare(manifest(t, c.rendered), liveObject(t, c.live), c.ignore)
			checkFields(t, got, c.wants)
		})
	}
}

const labelled = `
apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
    team: a
  annotations:
    note: chart
    meta.helm.sh/release-name: web
    meta.helm.sh/release-namespace: apps
    kubectl.kubernetes.io/last-applied-configuration: "{}"
    deployment.kubernetes.io/revision: "1"
spec:
  ports:
  - port: 80
    targetPort: http
`

func TestCompareMetadata(t *testing.T) {
	cases := []struct {
		name, live string
		wants      []want
	}{{
		name: "same",
		live: "metadata:\n  labels: {app.kubernetes.io/name: web, team: a}\n  annotations: {note: chart}\nspec:\n  ports: [{port: 80, targetPort: http, protocol: TCP}]\n",
	}, {
		name:  "label changed",
		live:  "metadata:\n  labels: {app.kubernetes.io/name: api, team: a}\n  annotations: {note: chart}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
		wants: []want{{path: `metadata.labels["app.kubernetes.io/name"]`, rendered: "web", live: "api"}},
	}, {
		name:  "label removed",
		live:  "metadata:\n  labels: {app.kubernetes.io/name: web}\n  annotations: {note: chart}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
		wants: []want{{path: "metadata.labels.team", rendered: "a", missing: true}},
	}, {
		name: "all labels removed",
		live: "metadata:\n  annotations: {note: chart}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
		wants: []want{
			{path: "metadata.labels.team", rendered: "a", missing: true},
			{path: `metadata.labels["app.kubernetes.io/name"]`, rendered: "web", missing: true},
		},
	}, {
		name: "annotation and label added by hand are not drift",
		live: "metadata:\n  labels: {app.kubernetes.io/name: web, team: a, extra: x}\n  annotations: {note: chart, by-hand: x}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
	}, {
		name:  "chart annotation changed, helm and kubectl ones differ",
		live:  "metadata:\n  labels: {app.kubernetes.io/name: web, team: a}\n  annotations: {note: edited, meta.helm.sh/release-name: other, deployment.kubernetes.io/revision: \"9\"}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
		wants: []want{{path: "metadata.annotations.note", rendered: "chart", live: "edited"}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFields(t, drift.Compare(manifest(t, labelled), liveObject(t, c.live), nil), c.wants)
		})
	}
}

func TestComparePathAndPointer(t *testing.T) {
	rendered := manifest(t, "metadata:\n  labels: {app.kubernetes.io/name: web}\nspec:\n  containers: [{name: a, image: x}]\ndata:\n  a~b: one\n")
	live := liveObject(t, "metadata:\n  labels: {app.kubernetes.io/name: api}\nspec:\n  containers: [{name: a, image: y}]\ndata: {}\n")
	got := drift.Compare(rendered, live, nil)
	wantPaths := [][3]string{
		{`data["a~b"]`, "/data/a~0b", "missing"},
		{`metadata.labels["app.kubernetes.io/name"]`, "/metadata/labels/app.kubernetes.io~1name", ""},
		{"spec.containers[0].image", "/spec/containers/0/image", ""},
	}
	if len(got) != len(wantPaths) {
		t.Fatalf("got %d fields, want %d: %+v", len(got), len(wantPaths), got)
	}
	for i, w := range wantPaths {
		if got[i].Path != w[0] || got[i].Pointer != w[1] || got[i].Missing != (w[2] == "missing") {
			t.Errorf("field %d: got %q %q missing=%v, want %v", i, got[i].Path, got[i].Pointer, got[i].Missing, w)
		}
	}
}

func TestCompareConfigMap(t *testing.T) {
	rendered := manifest(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata:\n  nginx.conf: |\n    listen 80;\n  mode: prod\n")
	live := liveObject(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, uid: u}\ndata:\n  nginx.conf: |\n    listen 8080;\n  mode: prod\n")
	checkFields(t, drift.Compare(rendered, live, nil), []want{
		{path: `data["nginx.conf"]`, rendered: "listen 80;\n", live: "listen 8080;\n"},
	})
}

func TestCompareDeployment(t *testing.T) {
	got := drift.Compare(manifest(t, deployment), liveObject(t, liveDeployment), nil)
	checkFields(t, got, []want{
		{path: "spec.template.spec.containers[0].image", rendered: "nginx:1.25", live: "nginx:1.26"},
	})
	if got[0].Pointer != "/spec/template/spec/containers/0/image" {
		t.Errorf("pointer %q", got[0].Pointer)
	}
}

func TestCompareDeploymentEditedBack(t *testing.T) {
	live := liveObject(t, liveDeployment)
	containers := live["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
	containers[0].(map[string]any)["image"] = "nginx:1.25"
	if got := drift.Compare(manifest(t, deployment), live, nil); len(got) != 0 {
		t.Errorf("drift in a live object that holds every manifest field: %s", drift.Summary(got, nil))
	}
}

func TestCompareSecret(t *testing.T) {
	const (
		admin    = "YWRtaW4="             // admin
		password = "czNjcmV0"             // s3cret
		url      = "cG9zdGdyZXM6Ly9kYg==" // postgres://db
		other    = "b3RoZXI="             // other
	)
	cases := []struct {
		name, live string
		wants      []want
	}{{
		name: "stringData folded into data",
		live: "data: {user: " + admin + ", password: " + password + ", url: \"" + url + "\"}\ntype: Opaque\n",
	}, {
		name:  "stringData key changed",
		live:  "data: {user: " + admin + ", password: " + other + ", url: \"" + url + "\"}\ntype: Opaque\n",
		wants: []want{{path: "data.password", rendered: password, live: other}},
	}, {
		name:  "data key changed",
		live:  "data: {user: " + other + ", password: " + password + ", url: \"" + url + "\"}\ntype: Opaque\n",
		wants: []want{{path: "data.user", rendered: admin, live: other}},
	}, {
		name:  "stringData key removed",
		live:  "data: {user: " + admin + ", url: \"" + url + "\"}\ntype: Opaque\n",
		wants: []want{{path: "data.password", rendered: password, missing: true}},
	}, {
		name: "no data at all",
		live: "type: Opaque\n",
		wants: []want{
			{path: "data.password", rendered: password, missing: true},
			{path: "data.url", rendered: url, missing: true},
			{path: "data.user", rendered: admin, missing: true},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := drift.Compare(manifest(t, secret), liveObject(t, c.live), nil)
			checkFields(t, got, c.wants)
			for _, f := range got {
				if !f.Secret {
					t.Errorf("%s not marked Secret", f.Path)
				}
			}
		})
	}
}

// A ConfigMap's data is not a Secret's: a stringData key means nothing there.
func TestCompareStringDataOnlyInSecrets(t *testing.T) {
	rendered := manifest(t, "apiVersion: v1\nkind: ConfigMap\nstringData: {a: b}\n")
	checkFields(t, drift.Compare(rendered, liveObject(t, "data: {a: Yg==}\n"), nil), []want{
		{path: "stringData.a", rendered: "b", missing: true},
	})
}
