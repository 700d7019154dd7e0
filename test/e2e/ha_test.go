package e2e_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Two replicas with ADDON_OPERATOR_HA, each listening on its own address
// and the same port, as pods do: one leads and converges; the other
// serves its port and answers /readyz with the leader's readiness, asked
// at the address in the leader's Lease identity (the original's form,
// UPSTREAM §4). When the leader stops (SIGTERM, exit 0, lease released)
// the other takes over and converges.
func TestLeaderElection(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	applyExampleConfigMap(t, root, ns)
	a := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-a")
	a.waitReady(t)
	b := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-b",
		"ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.2", "ADDON_OPERATOR_LISTEN_PORT="+strconv.Itoa(a.port))
	b.waitListening(t)
	if code, _ := b.get(t, "/healthz"); code != 200 {
		t.Fatalf("follower /healthz %d", code)
	}
	if holder := leaseHolder(t, ns); holder != "replica-a.127-0-0-1."+ns+".pod" {
		t.Fatalf("lease held by %q", holder)
	}
	// Until its first try for the lease the follower knows no leader and
	// says so; then it answers with the leader's readiness.
	waitFor(t, "the follower's /readyz with the leader's 200", func() bool {
		code, body := b.get(t, "/readyz")
		switch text := strings.TrimSpace(body); {
		case code == 200 && text == "HA mode is enabled and waiting for acquiring the lock.":
			return true
		case code == 500 && text == "HA mode is enabled but no leader is elected":
			return false
		default:
			t.Fatalf("follower /readyz %d %q", code, body)
			return false
		}
	})
	a.stop(t)
	if code := a.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("leader exit code %d\n%s", code, a.logText())
	}
	start := time.Now()
	b.waitReady(t)
	t.Logf("takeover: ready %s after the leader stopped", time.Since(start))
	if n := b.count("leading", map[string]any{"identity": "replica-b.127-0-0-2." + ns + ".pod"}); n != 1 {
		t.Fatalf("replica-b led %d times\n%s", n, b.logText())
	}
}

// SIGKILL the leader: the other replica takes over within the lease
// duration, converges, and no release gets more than one extra revision.
func TestLeaderKilledOtherTakesOver(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	applyExampleConfigMap(t, root, ns)
	// A 15 s lease, shorter than the original's 35 s default, keeps the test short.
	lease := []string{"ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_HA_LEASE_DURATION=15s",
		"ADDON_OPERATOR_HA_RENEW_DEADLINE=10s", "ADDON_OPERATOR_HA_RETRY_PERIOD=2s"}
	a := startOperator(t, root, ns, append(lease, "ADDON_OPERATOR_POD=replica-a")...)
	a.waitReady(t)
	a.waitIdle(t)
	b := startOperator(t, root, ns, append(lease, "ADDON_OPERATOR_POD=replica-b")...)
	b.waitListening(t)
	revisions := releaseRevisions(t, ns)
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	a.waitExit(t, 10*time.Second)
	start := time.Now()
	b.waitReady(t)
	b.waitIdle(t)
	took := time.Since(start)
	t.Logf("takeover after SIGKILL: ready in %s (lease 15 s)", took)
	if took > 20*time.Second {
		t.Fatalf("takeover took %s, more than the lease duration", took)
	}
	for name, rev := range releaseRevisions(t, ns) {
		if rev > revisions[name]+1 {
			t.Fatalf("release %s went from revision %d to %d", name, revisions[name], rev)
		}
	}
}

// leaseHolder is the holder identity of the replicas' Lease.
func leaseHolder(t *testing.T, ns string) string {
	t.Helper()
	lease, err := kube.Client(t).CoordinationV1().Leases(ns).Get(context.Background(), "addon-operator-leader-election", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

// releaseRevisions reads the deployed revision of every release.
func releaseRevisions(t *testing.T, ns string) map[string]int {
	t.Helper()
	client := kube.Client(t)
	secrets, err := client.CoreV1().Secrets(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm,status=deployed"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, s := range secrets.Items {
		rev, _ := strconv.Atoi(s.Labels["version"])
		out[s.Labels["name"]] = rev
	}
	if len(out) == 0 {
		t.Fatal("no deployed releases")
	}
	return out
}

// Two replicas started at the same instant: exactly one leads and runs the
// hooks; the other stays not ready.
func TestTwoReplicasStartedTogether(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	applyExampleConfigMap(t, root, ns)
	a := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-a")
	b := startOperator(t, root, ns, "ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_POD=replica-b")
	var leader, follower *operator
	select {
	case <-a.ready:
		leader, follower = a, b
	case <-b.ready:
		leader, follower = b, a
	case <-time.After(90 * time.Second):
		t.Fatal("neither replica became ready")
	}
	leader.waitIdle(t)
	follower.waitListening(t)
	if code, _ := follower.get(t, "/readyz"); code != 500 {
		t.Fatalf("the follower is ready too (%d)", code)
	}
	if n := follower.countWith("output", "stdout"); n != 0 {
		t.Fatalf("the follower ran hooks (%d output lines)", n)
	}
	if n := leader.countWith("output", "stdout"); n == 0 {
		t.Fatalf("the leader's hooks printed nothing")
	}
	if n := follower.count("leading", nil); n != 0 {
		t.Fatalf("both replicas lead\n%s", follower.logText())
	}
}

// The leader's connection to the apiserver is cut: it cannot renew its
// Lease, stops its work and exits 1 after the renew deadline; the other
// replica takes the Lease once it expires (after the old leader stopped)
// and converges.
func TestLeaderCutOffFromTheAPIServer(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	applyExampleConfigMap(t, root, ns)
	proxy := startProxy(t, apiserverAddr(t))
	ha := []string{"ADDON_OPERATOR_HA=true", "ADDON_OPERATOR_HA_LEASE_DURATION=4s",
		"ADDON_OPERATOR_HA_RENEW_DEADLINE=3s", "ADDON_OPERATOR_HA_RETRY_PERIOD=500ms"}
	a := startOperator(t, root, ns, append(ha, "ADDON_OPERATOR_POD=replica-a", "KUBE_CONFIG="+proxy.kubeconfig(t))...)
	a.waitReady(t)
	a.waitIdle(t)
	b := startOperator(t, root, ns, append(ha, "ADDON_OPERATOR_POD=replica-b")...)
	b.waitListening(t)
	cut := time.Now()
	proxy.cut()
	if code := a.waitExit(t, 30*time.Second); code != 1 {
		t.Fatalf("the cut-off leader exited with %d, want 1\n%s", code, a.logText())
	}
	exited := time.Since(cut)
	b.waitReady(t)
	t.Logf("cut-off leader exited %s after the cut; the other replica ready %s after it", exited, time.Since(cut))
	stopped := a.lastRecordTime(t)
	led := recordTime(t, b.waitRecord(t, "leading", map[string]any{"identity": "replica-b.127-0-0-1." + ns + ".pod"}))
	if !led.After(stopped) {
		t.Fatalf("replica-b led at %s, before the cut-off leader's last record at %s", led, stopped)
	}
}
