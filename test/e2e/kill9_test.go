package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// kills is how many times TestKill9DuringUpgrade kills the operator.
const kills = 20

// SIGKILL during an upgrade, 20 times at random points (a seeded random
// delay after helm stored the pending revision of a release of 300
// objects, which it then writes one by one): the operator
// that starts after each kill converges with no manual step, the release
// deployed with the values of the last edit and no revision left pending.
// The run modes alternate. The test counts the recoveries (20/20) and logs
// how many kills left the release stuck.
func TestKill9DuringUpgrade(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":        "bigEnabled: true\n",
		"modules/001-big/Chart.yaml": "apiVersion: v2\nname: big\nversion: 0.1.0\n",
		"modules/001-big/templates/cms.yaml": "{{- range $i := until 300 }}\n---\napiVersion: v1\nkind: ConfigMap\n" +
			"metadata:\n  name: big-{{ $i }}\ndata:\n  payload: {{ $.Values.big.payload | quote }}\n{{- end }}\n",
	})
	client, cfg := kube.Client(t), plainHelm(t, ns)
	rng := rand.New(rand.NewPCG(45, 2))
	recovered, stuckAfterKill := 0, map[string]int{}
	for i := 0; i <= kills; i++ {
		payload := fmt.Sprintf("v%d", i) // the ConfigMap says so: written here first, then before each kill
		if i == 0 {
			scenario.PutConfigMap(t, kube, ns, map[string]string{"big": "payload: " + payload + "\n"})
		}
		op := startSpec(t, root, ns, fmt.Sprintf("ADDON_OPERATOR_PARALLEL_MODULE_RUNS=%d", 1+7*(i%2)))
		op.waitReady(t)
		op.waitIdle(t)
		if status, rev := releaseStatus(t, client, ns, "big"); status != "deployed" {
			t.Fatalf("start %d: release big revision %d is %s\n%s", i, rev, status, op.logText())
		}
		checkNoPendingRevision(t, cfg, "big")
		for _, name := range []string{"big-0", "big-299"} {
			if got := configMap(t, client, ns, name)["payload"]; got != payload {
				t.Fatalf("start %d: %s payload %q, want %s", i, name, got, payload)
			}
		}
		if i > 0 {
			recovered++
		}
		if i == kills {
			op.stop(t)
			break
		}
		pending := watchPending(t, ns)
		scenario.PutConfigMap(t, kube, ns, map[string]string{"big": fmt.Sprintf("payload: v%d\n", i+1)})
		op.waitClosed(t, pending, "the pending revision of the upgrade", 60*time.Second)
		delay := time.Duration(rng.Int64N(int64(1000 * time.Millisecond)))
		<-time.After(delay) // the random point, not a wait for anything
		if err := op.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		op.waitExit(t, 30*time.Second)
		status, rev := releaseStatus(t, client, ns, "big")
		stuckAfterKill[status]++
		t.Logf("kill %d after %s: revision %d %s", i+1, delay.Round(time.Millisecond), rev, status)
	}
	t.Logf("recovered %d/%d after SIGKILL; states the kills left: %v", recovered, kills, stuckAfterKill)
	if recovered != kills {
		t.Fatalf("recovered %d/%d", recovered, kills)
	}
}

// watchPending is closed when helm stores a pending-upgrade revision of
// release big (the upgrade has begun writing its objects).
func watchPending(t *testing.T, ns string) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w, err := kube.Client(t).CoreV1().Secrets(ns).Watch(ctx, metav1.ListOptions{LabelSelector: "owner=helm,name=big,status=pending-upgrade"})
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan struct{})
	go func() {
		defer w.Stop()
		for ev := range w.ResultChan() {
			if ev.Type == watch.Added || ev.Type == watch.Modified {
				close(seen)
				return
			}
		}
	}()
	return seen
}
