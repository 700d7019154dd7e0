package chartrun_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

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
