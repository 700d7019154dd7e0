package objectpatch_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestApplyCreates(t *testing.T) {
	e := newEnv(t, 0)
	obj := func(v string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"$NS"},"data":{"v":"` + v + `"}}`
	}
	err := e.apply(`{"operation":"Create","object":` + obj("1") + `}
{"operation":"Create","object":` + obj("2") + `}
{"operation":"CreateIfNotExists","object":` + obj("3") + `}
{"operation":"CreateIfNotExists","object":"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: $NS}"}`)
	if err == nil || !strings.Contains(err.Error(), "item 1 (Create ConfigMap "+e.ns+"/c): create:") ||
		!strings.Contains(err.Error(), "already exists") {
		t.Fatalf("error %v, want item 1's AlreadyExists", err)
	}
	if cm, _ := e.configMap("c"); cm.Data["v"] != "1" {
		t.Errorf("c has v=%q after Create and CreateIfNotExists, want 1", cm.Data["v"])
	}
	if _, ok := e.configMap("d"); !ok {
		t.Error("CreateIfNotExists after a failed item did not create d: every operation must be attempted")
	}
	if err := e.apply(`{"operation":"CreateOrUpdate","object":` + obj("4") + `}`); err != nil {
		t.Fatal(err)
	}
	if cm, _ := e.configMap("c"); cm.Data["v"] != "4" {
		t.Errorf("c has v=%q after CreateOrUpdate, want 4", cm.Data["v"])
	}
	if e.outcomes["demo/Create/failed"] != 1 || e.outcomes["demo/CreateOrUpdate/applied"] != 1 {
		t.Errorf("outcomes %v", e.outcomes)
	}
}

func TestApplyPatches(t *testing.T) {
	e := newEnv(t, 0)
	e.createConfigMap("p", map[string]string{"a": "1", "b": "2"})
	err := e.apply(`{"operation":"MergePatch","kind":"ConfigMap","namespace":"$NS","name":"p","mergePatch":{"data":{"m":"x"}}}
{"operation":"JSONPatch","apiVersion":"v1","kind":"ConfigMap","namespace":"$NS","name":"p","jsonPatch":[{"op":"remove","path":"/data/b","value":null}]}
{"operation":"JSONPatch","kind":"ConfigMap","namespace":"$NS","name":"p","jsonPatch":"[{\"op\":\"add\",\"path\":\"/data/s\",\"value\":\"str\"}]"}
{"operation":"JQPatch","kind":"ConfigMap","namespace":"$NS","name":"p","jqFilter":".data.a = (.data.a | tonumber + 1 | tostring)"}`)
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := e.configMap("p")
	want := map[string]string{"a": "2", "m": "x", "s": "str"}
	if len(cm.Data) != len(want) || cm.Data["a"] != "2" || cm.Data["m"] != "x" || cm.Data["s"] != "str" {
		t.Fatalf("data %v, want %v", cm.Data, want)
	}
	if err := e.apply(`{"operation":"JQPatch","kind":"ConfigMap","namespace":"$NS","name":"p","jqFilter":".data.a = \"2\""}`); err != nil {
		t.Fatal(err)
	}
	if again, _ := e.configMap("p"); again.ResourceVersion != cm.ResourceVersion {
		t.Errorf("a JQPatch that changes nothing updated the object (resourceVersion %s -> %s)", cm.ResourceVersion, again.ResourceVersion)
	}
}

func TestApplyIgnoreMissingObject(t *testing.T) {
	e := newEnv(t, 0)
	ignored := `{"operation":"MergePatch","kind":"ConfigMap","namespace":"$NS","name":"gone","mergePatch":{"data":{"a":"b"}},"ignoreMissingObject":true}
{"operation":"JSONPatch","kind":"ConfigMap","namespace":"$NS","name":"gone","jsonPatch":[{"op":"add","path":"/data","value":{}}],"ignoreMissingObject":true}
{"operation":"JQPatch","kind":"ConfigMap","namespace":"$NS","name":"gone","jqFilter":".data = {}","ignoreMissingObject":true}
{"operation":"DeleteNonCascading","kind":"ConfigMap","namespace":"$NS","name":"gone"}`
	if err := e.apply(ignored); err != nil {
		t.Fatalf("ignoreMissingObject: %v", err)
	}
	err := e.apply(strings.ReplaceAll(ignored, `,"ignoreMissingObject":true`, ""))
	for _, item := range []string{"item 0 (MergePatch", "item 1 (JSONPatch", "item 2 (JQPatch"} {
		if err == nil || !strings.Contains(err.Error(), item) || !strings.Contains(err.Error(), "not found") {
			t.Errorf("error %v, want one naming %s ... not found", err, item)
		}
	}
	if err != nil && strings.Contains(err.Error(), "item 3") {
		t.Errorf("a delete of a missing object failed: %v", err)
	}
}

func TestApplyUnservedKind(t *testing.T) {
	e := newEnv(t, 0)
	e.createConfigMap("after", nil)
	err := e.apply(`{"operation":"MergePatch","apiVersion":"example.com/v1","kind":"Widget","namespace":"$NS","name":"w","mergePatch":{"a":1}}
{"operation":"MergePatch","kind":"Gizmo","name":"g","mergePatch":{"a":1}}
{"operation":"MergePatch","kind":"ConfigMap","namespace":"$NS","name":"after","mergePatch":{"data":{"k":"v"}}}`)
	for _, want := range []string{"item 0 (MergePatch Widget " + e.ns + "/w): kind Widget of apiVersion example.com/v1 is not served",
		"item 1 (MergePatch Gizmo g): kind Gizmo is not served"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	}
	if cm, _ := e.configMap("after"); cm.Data["k"] != "v" {
		t.Error("the operation after the unserved kinds was not applied")
	}
}

// Hooks of several owners may update one object at once: each
// read-modify-update that loses is retried, none is lost.
func TestApplyConflictRetry(t *testing.T) {
	e := newEnv(t, 0)
	e.createConfigMap("n", map[string]string{"n": "0"})
	const writers, each = 4, 10
	inc := `{"operation":"JQPatch","kind":"ConfigMap","namespace":"$NS","name":"n","jqFilter":".data.n = (.data.n | tonumber + 1 | tostring)"}`
	upd := `{"operation":"CreateOrUpdate","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u","namespace":"$NS"},"data":{"w":"x"}}}`
	stream := strings.Repeat(inc+"\n"+upd+"\n", each)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() { errs <- e.apply(stream) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if cm, _ := e.configMap("n"); cm.Data["n"] != "40" {
		t.Errorf("n = %s after %d concurrent increments, want 40", cm.Data["n"], writers*each)
	}
}

func TestApplyStatusSubresource(t *testing.T) {
	e := newEnv(t, 0)
	deploy := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"$NS"},"spec":{"replicas":1,
"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`
	err := e.apply(`{"operation":"Create","object":` + deploy + `}
{"operation":"MergePatch","apiVersion":"apps/v1","kind":"Deployment","namespace":"$NS","name":"d","subresource":"status","mergePatch":{"status":{"observedGeneration":5}}}
{"operation":"JQPatch","kind":"Deployment","namespace":"$NS","name":"d","subresource":"status","jqFilter":".status.replicas = 3 | .spec.replicas = 9"}`)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.client.AppsV1().Deployments(e.ns).Get(context.Background(), "d", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.ObservedGeneration != 5 || d.Status.Replicas != 3 {
		t.Errorf("status %+v, want observedGeneration 5 and replicas 3", d.Status)
	}
	if *d.Spec.Replicas != 1 {
		t.Errorf("spec.replicas = %d: an update of the status subresource changed the spec", *d.Spec.Replicas)
	}
}
