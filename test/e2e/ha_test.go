package e2e_test

import (
	"testing"
	"time"
)

// Two replicas with ADDON_OPERATOR_HA: one leads and converges, the other
// serves its port but is not ready; when the leader stops (SIGTERM, exit 0,
// lease released) the other takes over and converges.
func TestLeaderElection(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	applyExampleConfigMap(t, root, ns)
	a := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-a")
	a.waitReady(t)
	b := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-b")
	b.waitListening(t)
	if code, _ := b.get(t, "/healthz"); code != 200 {
		t.Fatalf("follower /healthz %d", code)
	}
	if code, _ := b.get(t, "/readyz"); code != 503 {
		t.Fatalf("follower /readyz %d, want 503", code)
	}
	a.stop(t)
	if code := a.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("leader exit code %d\n%s", code, a.logText())
	}
	start := time.Now()
	b.waitReady(t)
	t.Logf("takeover: ready %s after the leader stopped", time.Since(start))
	if n := b.count("leading", map[string]any{"identity": "replica-b"}); n != 1 {
		t.Fatalf("replica-b led %d times\n%s", n, b.logText())
	}
}
