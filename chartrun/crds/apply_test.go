package crds_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"github.com/addon-actors/addon-operator/chartrun/crds"
)

// crdFile is a CRD of group GROUP, kind Widget, with the versions given as
// "name:storage" (storage true/false); LABELS is its metadata.labels.
const crdFile = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.GROUP
  labels: {LABELS}
spec:
  group: GROUP
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
VERSIONS`

const versionEntry = `  - name: %s
    served: true
    storage: %t
    schema:
      openAPIV3Schema:
        type: object
        description: %s
        x-kubernetes-preserve-unknown-fields: true
`

type applyFixture struct {
	in     *crds.Installer
	client dynamic.Interface
	group  string
	log    *bytes.Buffer
}

func newApplyFixture(t *testing.T) applyFixture {
	cfg := kube.Config(t)
	client := dynamic.NewForConfigOrDie(cfg)
	group := strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")) + ".crds.example.com"
	t.Cleanup(func() {
		_ = client.Resource(crds.Resource).Delete(context.Background(), "widgets."+group, metav1.DeleteOptions{})
	})
	labels, err := crds.ParseExtraLabels("team=core")
	if err != nil {
		t.Fatal(err)
	}
	log := &bytes.Buffer{}
	return applyFixture{client: client, group: group, log: log, in: &crds.Installer{Client: client,
		Discovery: discovery.NewDiscoveryClientForConfigOrDie(cfg), Labels: labels,
		Log: slog.New(slog.NewTextHandler(log, nil))}}
}

// apply applies the file with versions ("v1:true", …) and description.
func (f applyFixture) apply(t *testing.T, labels, description string, versions ...string) {
	t.Helper()
	var vs strings.Builder
	for _, v := range versions {
		name, storage, _ := strings.Cut(v, ":")
		fmt.Fprintf(&vs, versionEntry, name, storage == "true", description)
	}
	text := strings.NewReplacer("GROUP", f.group, "LABELS", labels, "VERSIONS", vs.String()).Replace(crdFile)
	docs, err := crds.Parse("widgets.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	f.log.Reset()
	if err := f.in.Apply(context.Background(), "mod", docs); err != nil {
		t.Fatal(err)
	}
}

func (f applyFixture) get(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	u, err := f.client.Resource(crds.Resource).Get(context.Background(), "widgets."+f.group, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (f applyFixture) outcome(t *testing.T, want string) {
	t.Helper()
	if !strings.Contains(f.log.String(), "outcome="+want) {
		t.Errorf("log %q, want outcome=%s", f.log, want)
	}
}

// Created with the extra labels (team=core, heritage added) over its own, served at once (a mapper
// reset by Apply resolves the kind); applied again unchanged, nothing is
// written.
func TestApplyCreatesAndLabels(t *testing.T) {
	f := newApplyFixture(t)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(f.in.Discovery))
	if _, err := mapper.RESTMapping(schema.GroupKind{Kind: "ConfigMap"}); err != nil { // warm the cache
		t.Fatal(err)
	}
	f.in.Mapper = mapper
	f.apply(t, "heritage: other, team: edge, own: kept", "first", "v1:true")
	f.outcome(t, "created")
	got := f.get(t).GetLabels()
	want := map[string]string{"heritage": "addon-operator", "team": "core", "own": "kept"} // the extra labels win
	if !maps.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	if _, err := mapper.RESTMapping(schema.GroupKind{Group: f.group, Kind: "Widget"}, "v1"); err != nil {
		t.Errorf("kind not resolved after Apply: %v", err)
	}
	f.apply(t, "heritage: other, team: edge, own: kept", "first", "v1:true")
	f.outcome(t, "unchanged")
}

// An update replaces spec, labels and annotations but keeps the cluster's
// spec.conversion.
func TestApplyUpdateKeepsConversion(t *testing.T) {
	f := newApplyFixture(t)
	f.apply(t, "", "first", "v1:true")
	cur := f.get(t)
	conv := map[string]any{"strategy": "Webhook", "webhook": map[string]any{"conversionReviewVersions": []any{"v1"},
		"clientConfig": map[string]any{"url": "https://conversion.example.com/convert"}}}
	if err := unstructured.SetNestedField(cur.Object, conv, "spec", "conversion"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.Resource(crds.Resource).Update(context.Background(), cur, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.apply(t, "", "second", "v1:true")
	f.outcome(t, "updated")
	u := f.get(t)
	strategy, _, _ := unstructured.NestedString(u.Object, "spec", "conversion", "strategy")
	versions, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	desc, _, _ := unstructured.NestedString(versions[0].(map[string]any), "schema", "openAPIV3Schema", "description")
	if strategy != "Webhook" || desc != "second" {
		t.Errorf("conversion strategy %q, description %q; want Webhook kept and the new description", strategy, desc)
	}
}

// A version dropped from the spec is dropped from status.storedVersions
// first (else the apiserver refuses the update).
func TestApplyPrunesStoredVersions(t *testing.T) {
	f := newApplyFixture(t)
	f.apply(t, "", "d", "v1:true")
	f.apply(t, "", "d", "v1:false", "v2:true")
	if stored := storedVersions(t, f); !slices.Equal(stored, []string{"v1", "v2"}) {
		t.Fatalf("storedVersions %q, want v1 and v2", stored)
	}
	f.apply(t, "", "d", "v2:true")
	f.outcome(t, "updated")
	if stored := storedVersions(t, f); !slices.Equal(stored, []string{"v2"}) {
		t.Errorf("storedVersions %q, want v2", stored)
	}
}

func storedVersions(t *testing.T, f applyFixture) []string {
	s, _, _ := unstructured.NestedStringSlice(f.get(t).Object, "status", "storedVersions")
	return s
}
