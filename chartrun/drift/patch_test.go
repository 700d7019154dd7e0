package drift_test

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

// applyPatch applies a JSON patch to an object the way the apiserver would to its JSON.
func applyPatch(t *testing.T, object map[string]any, patch []byte) (map[string]any, error) {
	t.Helper()
	decoded, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		t.Fatalf("decode patch %s: %v", patch, err)
	}
	doc, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	patched, err := decoded.Apply(doc)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(patched, &out); err != nil {
		t.Fatal(err)
	}
	return out, nil
}

func TestPatchRestores(t *testing.T) {
	cases := []struct {
		name, rendered, live string
		ignore               []string
		fields               int
	}{
		{name: "deployment image", rendered: deployment, live: liveDeployment, fields: 1},
		{name: "deployment image ignored, replicas restored", rendered: deployment,
			live:   strings.Replace(liveDeployment, "replicas: 2\n  progress", "replicas: 7\n  progress", 1),
			ignore: []string{"spec.template.spec.containers[0].image"}, fields: 1},
		{name: "label changed and label removed, hand-added annotation kept", rendered: labelled,
			live:   "metadata:\n  labels: {app.kubernetes.io/name: api, extra: x}\n  annotations: {note: chart, by-hand: x}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
			fields: 2},
		{name: "labels and annotations gone", rendered: labelled,
			live:   "metadata: {name: web}\nspec:\n  ports: [{port: 80, targetPort: http}]\n",
			fields: 3},
		{name: "metadata gone", rendered: labelled, live: "spec:\n  ports: [{port: 80, targetPort: http}]\n", fields: 3},
		{name: "list grown", rendered: "spec:\n  args: [--a]\n  keep: 1\n", live: "spec:\n  args: [--a, --b]\n  keep: 1\n  extra: 2\n", fields: 1},
		{name: "port and element field", rendered: labelled,
			live:   "metadata:\n  labels: {app.kubernetes.io/name: web, team: a}\n  annotations: {note: chart}\nspec:\n  ports: [{port: 81, targetPort: web, protocol: TCP}]\n",
			fields: 2},
		{name: "deep map missing", rendered: "spec:\n  a:\n    b:\n      c: 1\n      d: [x]\n", live: "spec:\n  a: {other: 1}\n", fields: 2},
		{name: "live null map", rendered: "spec:\n  a:\n    b: 1\n", live: "spec:\n  a: null\n", fields: 1},
		{name: "live null list element", rendered: "spec:\n  args: [a, b]\n", live: "spec:\n  args: [null, b]\n", fields: 1},
		{name: "map replaced by a string", rendered: "spec:\n  a: {b: 1}\n", live: "spec:\n  a: text\n", fields: 1},
		{name: "configmap data key", rendered: "apiVersion: v1\nkind: ConfigMap\ndata:\n  nginx.conf: listen 80;\n  a/b~c: x\n",
			live: "apiVersion: v1\nkind: ConfigMap\ndata:\n  nginx.conf: listen 8080;\n  other: y\n", fields: 2},
		{name: "secret stringData changed", rendered: secret,
			live: "type: Opaque\ndata: {user: YWRtaW4=, password: b3RoZXI=, url: \"cG9zdGdyZXM6Ly9kYg==\", extra: eA==}\n", fields: 1},
		{name: "secret without data", rendered: secret, live: "type: Opaque\n", fields: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rendered, live := manifest(t, c.rendered), liveObject(t, c.live)
			fields := drift.Compare(rendered, live, c.ignore)
			if len(fields) != c.fields {
				t.Fatalf("want %d fields, got %d: %s", c.fields, len(fields), drift.Summary(fields, nil))
			}
			patch, err := drift.Patch(fields)
			if err != nil {
				t.Fatal(err)
			}
			patched, err := applyPatch(t, live, patch)
			if err != nil {
				t.Fatalf("apply %s: %v", patch, err)
			}
			if again := drift.Compare(rendered, patched, c.ignore); len(again) != 0 {
				t.Errorf("drift after patch %s: %s", patch, drift.Summary(again, nil))
			}
			checkUntouched(t, live, patched, fields)
		})
	}
}

func TestPatchSecretSetsBase64(t *testing.T) {
	live := liveObject(t, "type: Opaque\ndata: {user: YWRtaW4=, url: \"cG9zdGdyZXM6Ly9kYg==\"}\n")
	patch, err := drift.Patch(drift.Compare(manifest(t, secret), live, nil))
	if err != nil {
		t.Fatal(err)
	}
	patched, err := applyPatch(t, live, patch)
	if err != nil {
		t.Fatal(err)
	}
	got := patched["data"].(map[string]any)["password"]
	if want := base64.StdEncoding.EncodeToString([]byte("s3cret")); got != want {
		t.Errorf("data.password = %v, want %s", got, want)
	}
	if _, ok := patched["stringData"]; ok {
		t.Errorf("patch wrote stringData: %s", patch)
	}
}

func TestPatchOperations(t *testing.T) {
	fields := drift.Compare(manifest(t, labelled), liveObject(t, "metadata: {name: web}\nspec:\n  ports: [{port: 81, targetPort: http}]\n"), nil)
	patch, err := drift.Patch(fields)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"op":"add","path":"/metadata/annotations","value":{}},` +
		`{"op":"add","path":"/metadata/annotations/note","value":"chart"},` +
		`{"op":"add","path":"/metadata/labels","value":{}},` +
		`{"op":"add","path":"/metadata/labels/team","value":"a"},` +
		`{"op":"add","path":"/metadata/labels/app.kubernetes.io~1name","value":"web"},` +
		`{"op":"test","path":"/spec/ports/0/port","value":81},` +
		`{"op":"replace","path":"/spec/ports/0/port","value":80}]`
	if string(patch) != want {
		t.Errorf("patch\n got %s\nwant %s", patch, want)
	}
}

func TestPatchFailsOnConcurrentChange(t *testing.T) {
	cases := []struct {
		name, rendered, live, meanwhile string
	}{
		{"image changed again", deployment, liveDeployment, strings.Replace(liveDeployment, "nginx:1.26", "nginx:1.27", 1)},
		{"secret key changed again", secret,
			"type: Opaque\ndata: {user: YWRtaW4=, password: b3RoZXI=, url: \"cG9zdGdyZXM6Ly9kYg==\"}\n",
			"type: Opaque\ndata: {user: YWRtaW4=, password: dGhpcmQ=, url: \"cG9zdGdyZXM6Ly9kYg==\"}\n"},
		{"list changed again", "spec:\n  args: [--a]\n", "spec:\n  args: [--a, --b]\n", "spec:\n  args: [--a, --c]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			patch, err := drift.Patch(drift.Compare(manifest(t, c.rendered), liveObject(t, c.live), nil))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := applyPatch(t, liveObject(t, c.meanwhile), patch); err == nil {
				t.Errorf("patch %s applied over a concurrent change", patch)
			}
		})
	}
}

// A change meanwhile to a field the patch does not restore does not stop it.
func TestPatchIgnoresOtherConcurrentChanges(t *testing.T) {
	patch, err := drift.Patch(drift.Compare(manifest(t, deployment), liveObject(t, liveDeployment), nil))
	if err != nil {
		t.Fatal(err)
	}
	meanwhile := liveObject(t, strings.Replace(liveDeployment, "replicas: 2\n  progress", "replicas: 4\n  progress", 1))
	if _, err := applyPatch(t, meanwhile, patch); err != nil {
		t.Errorf("patch failed on a change it does not touch: %v", err)
	}
}

func TestPatchEmpty(t *testing.T) {
	patch, err := drift.Patch(nil)
	if err != nil || string(patch) != "[]" {
		t.Errorf("Patch(nil) = %s, %v; want []", patch, err)
	}
}

func TestPatchErrors(t *testing.T) {
	cases := []struct {
		name  string
		field drift.Field
	}{
		{"no pointer", drift.Field{Path: "spec.x", Rendered: 1.0, Missing: true}},
		{"too many missing parents", drift.Field{Path: "spec.x", Pointer: "/spec/x", Rendered: 1.0, Missing: true, MissingParents: 2}},
		{"value JSON cannot hold", drift.Field{Path: "spec.x", Pointer: "/spec/x", Rendered: math.NaN(), Live: 1.0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := drift.Patch([]drift.Field{c.field})
			if err == nil || !strings.Contains(err.Error(), "spec.x") {
				t.Errorf("Patch: %v; want an error naming spec.x", err)
			}
		})
	}
}
