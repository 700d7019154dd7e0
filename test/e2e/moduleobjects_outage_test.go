package e2e_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// TestModuleObjectsAfterAnOutage: an apiserver outage delays no run (a
// failing module fixed while the apiserver is down runs at its next retry,
// during the outage), and its object catches up once the apiserver is
// back: Ready within 2 s.
func TestModuleObjectsAfterAnOutage(t *testing.T) {
	const name = "flaky-outage"
	root := tree(t, map[string]string{"record/.keep": "", "modules/values.yaml": "flakyOutageEnabled: true\n",
		"modules/" + name + "/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`if [[ ! -e $RECORD_DIR/fixed ]]; then echo "told to fail" >&2; exit 1; fi
record "$(date +%s.%N) ran" events`)})
	c, cfg, _ := cluster.PrivateNamespace(t, "objects-outage")
	op := startSpec(t, root, "objects-outage", "KUBE_CONFIG="+c.Kubeconfig)
	waitModuleOn(t, cfg, name, "Retrying", phaseIs("Retrying"))
	ctx := cluster.TestContext(t, 5*time.Minute)

	var fixed, ran time.Time
	ready := c.Outage(t, ctx, 3*time.Second, func() {
		fixed = time.Now()
		if err := os.WriteFile(filepath.Join(root, "record", "fixed"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		ran = waitHookSaw(t, op, root, "ran")
	})
	t.Logf("the run succeeded %v after the fix, the apiserver down", ran.Sub(fixed).Round(time.Millisecond))
	if !ran.Before(ready) {
		t.Fatalf("the fixed module ran at %v, after the apiserver was back at %v: the outage delayed it", ran, ready)
	}
	// a restarted apiserver serves the Module resource a few seconds after
	// it is ready (it loads its CRDs again); one read, which the apiserver
	// answers once it serves them, marks when the writer could write again
	if _, err := moduleResourceOn(cfg).Get(ctx, name, metav1.GetOptions{}); err != nil {
		t.Logf("the first read of %s after the outage: %v", name, err)
	}
	served := time.Now()
	waitModuleOn(t, cfg, name, "Ready after the outage", phaseIs("Ready"))
	seen := time.Now()
	t.Logf("the object was Ready %v after the apiserver was ready, %v after it served the object",
		seen.Sub(ready).Round(time.Millisecond), seen.Sub(served).Round(time.Millisecond))
	if caught := seen.Sub(served); caught > 2*time.Second {
		t.Fatalf("the object caught up %v after the apiserver served it, want within 2 s", caught)
	}
}

// lastFailedWrite is the time of the writer's last WARN of a failed write
// of object name.
func (op *operator) lastFailedWrite(t *testing.T, name string) time.Time {
	t.Helper()
	op.mu.Lock()
	defer op.mu.Unlock()
	for i := len(op.logs) - 1; i >= 0; i-- {
		if matches(op.logs[i], "module object not written, retrying", map[string]any{"object": name}) {
			return recordTime(t, op.logs[i])
		}
	}
	t.Fatalf("no failed write of %s logged", name)
	return time.Time{}
}
