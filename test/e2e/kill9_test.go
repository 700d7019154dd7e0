package e2e_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// kills is how many times TestKill9DuringUpgrade kills the operator.
const kills = 20

// SIGKILL during an upgrade, 20 times at random points (a seeded random
// delay after helm starts writing a release of 100 objects): the operator
// that starts after each kill converges with no manual step, the release
// deployed with the values of the last edit and no revision left pending.
// The run modes alternate. The test counts the recoveries (20/20) and logs
// how many kills left the release stuck.
func TestKill9DuringUpgrade(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":        "bigEnabled: true\n",
		"modules/001-big/Chart.yaml": "apiVersion: v2\nname: big\nversion: 0.1.0\n",
		"modules/001-big/templates/cms.yaml": "{{- range $i := until 100 }}\n---\napiVersion: v1\nkind: ConfigMap\n" +
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
		for _, name := range []string{"big-0", "big-99"} {
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
		before := op.count("helm release", map[string]any{"release": "big"})
		scenario.PutConfigMap(t, kube, ns, map[string]string{"big": fmt.Sprintf("payload: v%d\n", i+1)})
		op.waitUntil(t, "the upgrade started", func() bool { return op.count("helm release", map[string]any{"release": "big"}) > before })
		<-time.After(time.Duration(rng.Int64N(int64(800 * time.Millisecond)))) // the random point, not a wait for anything
		if err := op.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		op.waitExit(t, 30*time.Second)
		status, _ := releaseStatus(t, client, ns, "big")
		stuckAfterKill[status]++
	}
	t.Logf("recovered %d/%d after SIGKILL; states the kills left: %v", recovered, kills, stuckAfterKill)
	if recovered != kills {
		t.Fatalf("recovered %d/%d", recovered, kills)
	}
}
