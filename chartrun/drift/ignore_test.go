package drift_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

func TestParseIgnore(t *testing.T) {
	cases := []struct {
		value string
		want  []string
	}{
		{"", nil},
		{" , ,", nil},
		{"spec.replicas", []string{"spec.replicas"}},
		{"spec.replicas, spec.template.metadata.annotations", []string{"spec.replicas", "spec.template.metadata.annotations"}},
		{" spec.template.spec.containers[0].image ,", []string{"spec.template.spec.containers[0].image"}},
		{`metadata.labels["app.kubernetes.io/name"]`, []string{`metadata.labels["app.kubernetes.io/name"]`}},
		{`data["a,b"], spec.x`, []string{`data["a,b"]`, "spec.x"}},
		{`data["say \"hi\", twice"]`, []string{`data["say \"hi\", twice"]`}},
		{"spec.items[10][2].x-y_z", []string{"spec.items[10][2].x-y_z"}},
		{`["odd key"].x`, []string{`["odd key"].x`}},
	}
	for _, c := range cases {
		got, err := drift.ParseIgnore(c.value)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseIgnore(%q) = %q, %v; want %q", c.value, got, err, c.want)
		}
	}
}

func TestParseIgnoreBad(t *testing.T) {
	cases := []struct{ value, bad string }{
		{"spec..replicas", "spec..replicas"},
		{"spec.replicas, .spec", ".spec"},
		{"spec.replicas.", "spec.replicas."},
		{"spec replicas", "spec replicas"},
		{"spec.containers[a]", "spec.containers[a]"},
		{"spec.containers[-1]", "spec.containers[-1]"},
		{"spec.containers[+1]", "spec.containers[+1]"},
		{"spec.containers[0", "spec.containers[0"},
		{`metadata.labels["a`, `metadata.labels["a`},
		{`metadata.labels["a"`, `metadata.labels["a"`},
		{`metadata.labels["a"]b`, `metadata.labels["a"]b`},
		{"metadata.labels.app.kubernetes.io/name", "metadata.labels.app.kubernetes.io/name"},
	}
	for _, c := range cases {
		got, err := drift.ParseIgnore(c.value)
		if err == nil {
			t.Errorf("ParseIgnore(%q) = %q, want an error", c.value, got)
			continue
		}
		if !errors.Is(err, drift.ErrBadIgnorePath) || !strings.Contains(err.Error(), strconv.Quote(c.bad)) {
			t.Errorf("ParseIgnore(%q): %v; want ErrBadIgnorePath naming %q", c.value, err, c.bad)
		}
	}
}

func TestObjectIgnore(t *testing.T) {
	good := manifest(t, "metadata:\n  annotations:\n    drift.addon-operator.io/ignore: spec.replicas, spec.x\n")
	if got, err := drift.ObjectIgnore(good); err != nil || !reflect.DeepEqual(got, []string{"spec.replicas", "spec.x"}) {
		t.Errorf("ObjectIgnore = %q, %v", got, err)
	}
	if got, err := drift.ObjectIgnore(manifest(t, "spec: {}\n")); err != nil || got != nil {
		t.Errorf("ObjectIgnore without the annotation = %q, %v", got, err)
	}
	bad := manifest(t, "metadata:\n  annotations:\n    drift.addon-operator.io/ignore: spec..x\n")
	_, err := drift.ObjectIgnore(bad)
	if !errors.Is(err, drift.ErrBadIgnorePath) || !strings.Contains(err.Error(), drift.IgnoreAnnotation) {
		t.Errorf("ObjectIgnore of a bad annotation: %v", err)
	}
}

// withIgnoreAnnotation returns the Deployment manifest annotated to ignore paths.
func withIgnoreAnnotation(t *testing.T, paths string) map[string]any {
	t.Helper()
	object := manifest(t, deployment)
	annotations := object["metadata"].(map[string]any)["annotations"].(map[string]any)
	annotations[drift.IgnoreAnnotation] = paths
	return object
}

func TestCompareIgnore(t *testing.T) {
	// live has replicas, image, a template annotation and a label all changed.
	live := liveObject(t, liveDeployment)
	spec := live["spec"].(map[string]any)
	spec["replicas"] = int64(5)
	template := spec["template"].(map[string]any)
	template["metadata"].(map[string]any)["labels"].(map[string]any)["app.kubernetes.io/name"] = "other"
	image := want{path: "spec.template.spec.containers[0].image", rendered: "nginx:1.25", live: "nginx:1.26"}
	replicas := want{path: "spec.replicas", rendered: float64(2), live: int64(5)}
	label := want{path: `spec.template.metadata.labels["app.kubernetes.io/name"]`, rendered: "web", live: "other"}

	cases := []struct {
		name       string
		annotation string
		ignore     []string
		wants      []want
	}{
		{name: "nothing ignored", wants: []want{replicas, label, image}},
		{name: "argument", ignore: []string{"spec.replicas"}, wants: []want{label, image}},
		{name: "annotation", annotation: "spec.replicas", wants: []want{label, image}},
		{name: "both honoured", annotation: "spec.replicas", ignore: []string{"spec.template.spec.containers[0].image"}, wants: []want{label}},
		{name: "argument entry listing several", ignore: []string{"spec.replicas, spec.template.spec.containers[0].image"}, wants: []want{label}},
		{name: "path under a list", annotation: "spec.template.spec.containers[0].image", wants: []want{replicas, label}},
		{name: "list index written as a name", ignore: []string{"spec.template.spec.containers.0.image"}, wants: []want{replicas, label}},
		{name: "prefix covers a subtree", annotation: "spec.template", wants: []want{replicas}},
		{name: "prefix covers a map", ignore: []string{"spec.template.metadata.labels"}, wants: []want{replicas, image}},
		{name: "quoted key", ignore: []string{`spec.template.metadata.labels["app.kubernetes.io/name"]`}, wants: []want{replicas, image}},
		{name: "whole spec", ignore: []string{"spec"}},
		{name: "a path that matches nothing", ignore: []string{"spec.nothing.here"}, wants: []want{replicas, label, image}},
		{name: "bad annotation reports nothing", annotation: "spec..replicas"},
		{name: "bad argument reports nothing", ignore: []string{"spec.replicas["}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rendered := manifest(t, deployment)
			liveAnnotations := live["metadata"].(map[string]any)["annotations"].(map[string]any)
			delete(liveAnnotations, drift.IgnoreAnnotation)
			if c.annotation != "" {
				// helm applied the annotation with the rest of the object.
				rendered = withIgnoreAnnotation(t, c.annotation)
				liveAnnotations[drift.IgnoreAnnotation] = c.annotation
			}
			checkFields(t, drift.Compare(rendered, live, c.ignore), c.wants)
		})
	}
}

// Each field's display path, given back as an ignore path, silences that field and no other.
func TestCompareIgnoreByReportedPath(t *testing.T) {
	rendered := manifest(t, labelled+"data:\n  a~b/c: x\n")
	live := liveObject(t, "metadata:\n  labels: {app.kubernetes.io/name: api}\nspec:\n  ports: [{port: 81, targetPort: http}]\ndata: {}\n")
	all := drift.Compare(rendered, live, nil)
	if len(all) != 5 {
		t.Fatalf("want 5 fields, got %s", drift.Summary(all, nil))
	}
	for _, f := range all {
		rest := drift.Compare(rendered, live, []string{f.Path})
		if len(rest) != len(all)-1 {
			t.Errorf("ignoring %s left %s", f.Path, drift.Summary(rest, nil))
		}
		for _, r := range rest {
			if r.Path == f.Path {
				t.Errorf("ignoring %s did not silence it", f.Path)
			}
		}
	}
}

func TestCompareIgnoreStringData(t *testing.T) {
	live := liveObject(t, "type: Opaque\ndata: {user: b3RoZXI=}\n")
	checkFields(t, drift.Compare(manifest(t, secret), live, []string{"stringData.password", "data.url", "data.user"}), nil)
	checkFields(t, drift.Compare(manifest(t, secret), live, []string{"stringData", "data.user"}), nil)
}
