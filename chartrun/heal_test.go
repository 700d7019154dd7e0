package chartrun_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/chartrun"
)

// An object someone took helm's label off is reported absent (the LIST of
// helm's objects misses it), and the upgrade puts the label back.
func TestObjectWithoutHelmsLabelIsHealed(t *testing.T) {
	f := newFixture(t, 3)
	f.upgrade(t, "a")
	patch := []byte(`{"metadata":{"labels":{"app.kubernetes.io/managed-by":null}}}`)
	cms := f.client.CoreV1().ConfigMaps(f.ns)
	if _, err := cms.Patch(context.Background(), "demo-1", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	absent, err := f.r.AbsentResources(context.Background(), "demo")
	if want := []chartrun.Object{{APIVersion: "v1", Kind: "ConfigMap", Namespace: f.ns, Name: "demo-1"}}; err != nil || !reflect.DeepEqual(absent, want) {
		t.Fatalf("absent %v, %v; want %v", absent, err, want)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Upgraded {
		t.Fatalf("unlabelled object did not upgrade: %+v", res)
	}
	cm, err := cms.Get(context.Background(), "demo-1", metav1.GetOptions{})
	if err != nil || cm.Labels["app.kubernetes.io/managed-by"] != "Helm" {
		t.Fatalf("label not restored: %v %v", cm.Labels, err)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped {
		t.Fatalf("run after the heal: %+v", res)
	}
}

// One releaser serves all modules' workers at once (runs for one release
// never overlap: its module actor runs them one at a time).
func TestConcurrentModules(t *testing.T) {
	f := newFixture(t, 2)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := chartrun.Request{Release: fmt.Sprintf("module-%d", i), ChartDir: f.dir}
			for _, v := range []string{"a", "a", "b"} {
				req.Values = benchValues(v)
				if _, err := f.r.Upgrade(context.Background(), req); err != nil {
					errs[i] = err
					return
				}
			}
			_, errs[i] = f.r.AbsentResources(context.Background(), req.Release)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	names, err := f.r.List(context.Background())
	if err != nil || !reflect.DeepEqual(names, []string{"module-0", "module-1", "module-2", "module-3"}) {
		t.Fatalf("List = %v, %v", names, err)
	}
}

// The skip path checks the rendered objects for absence (while the history
// is read), which must leave out helm's hooks as the release's manifest
// does: a hook deleted after it ran is not absent, and the run after the
// install is skipped. A release object deleted meanwhile is still found.
func TestHelmHooksDeletedAfterTheyRanAreNotAbsent(t *testing.T) {
	ns := kube.Namespace(t)
	r, err := chartrun.NewReleaser(kube.Config(t), ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := writeModule(t, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n",
		"templates/hook.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hook\n  annotations:\n" +
			"    helm.sh/hook: post-install,post-upgrade\n    helm.sh/hook-delete-policy: hook-succeeded\n",
	})
	req := chartrun.Request{Release: "demo", ChartDir: dir, Values: map[string]any{}}
	ctx := context.Background()
	for i, want := range []chartrun.Action{chartrun.Installed, chartrun.Skipped, chartrun.Skipped} {
		if res, err := r.Upgrade(ctx, req); err != nil || res.Action != want {
			t.Fatalf("run %d: %+v, %v; want %s", i, res, err, want)
		}
	}
	cms := kubernetes.NewForConfigOrDie(kube.Config(t)).CoreV1().ConfigMaps(ns)
	if _, err := cms.Get(ctx, "hook", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the hook was not deleted after it ran: %v", err)
	}
	if err := cms.Delete(ctx, "kept", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Upgrade(ctx, req); err != nil || res.Action != chartrun.Upgraded || !strings.Contains(res.Reason, "kept") {
		t.Fatalf("after deleting kept: %+v, %v; want upgraded for the absent object", res, err)
	}
}
