package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// After a 6 s apiserver outage (a private cluster's apiserver stopped and
// started), the operator logs each watch's drop and resume at WARN, its
// gauge of watches down rises and comes back to 0, and an object created
// once the apiserver is ready runs the hook within 5 s.
func TestAPIServerOutageRecovery(t *testing.T) {
	ns := "outage"
	c, _, client := cluster.PrivateNamespace(t, ns)
	ctx := cluster.TestContext(t, 5*time.Minute)
	config := fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",`+
		`"namespace":{"nameSelector":{"matchNames":["%s"]}},"labelSelector":{"matchLabels":{"outage":"yes"}}}]}`, ns)
	root := tree(t, map[string]string{"modules/.keep": "", "global-hooks/watch.sh": hook(config,
		`record "$(date +%s.%N) $(jq -r '[.[] | select(.type == "Event") | .watchEvent + ":" + .object.metadata.name] | join(",")' "$BINDING_CONTEXT_PATH")" events`)})
	op := startSpec(t, root, ns, "KUBE_CONFIG="+c.Kubeconfig)
	op.waitReady(t)
	op.waitIdle(t)

	ready := c.Outage(t, ctx, 6*time.Second, func() {
		waitDropped(t, op, map[string]any{"level": "WARN", "owner": "global", "hook": "watch.sh", "binding": "cms"})
		waitDropped(t, op, map[string]any{"level": "WARN", "watch": "ConfigMap"})
		if down := watchesDown(t, op); down < 2 {
			t.Fatalf("kube_watches_down %v with the apiserver stopped, want 2 at least (binding, ConfigMap)", down)
		}
	})
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after", Labels: map[string]string{"outage": "yes"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ran := waitHookSaw(t, op, root, "Added:after")
	t.Logf("hook ran %v after the apiserver was ready", ran.Sub(ready).Round(time.Millisecond))
	if ran.Sub(ready) > 5*time.Second {
		t.Fatalf("the hook ran %v after the apiserver was ready, want within 5 s", ran.Sub(ready))
	}
	for _, fields := range []map[string]any{{"level": "WARN", "binding": "cms"}, {"level": "WARN", "watch": "ConfigMap"},
		{"level": "WARN", "watch": "ModuleConfigs"}} {
		rec := op.waitRecord(t, "watch resumed", fields)
		if d, _ := rec["down_seconds"].(float64); d < 5 {
			t.Fatalf("resume record %v: down %vs, want at least 5 s", rec, d)
		}
	}
	if down := watchesDown(t, op); down != 0 {
		t.Fatalf("kube_watches_down %v after the watches resumed, want 0", down)
	}
}

// waitHookSaw waits until the hook recorded event and returns when it ran.
func waitHookSaw(t *testing.T, op *operator, root, event string) time.Time {
	t.Helper()
	var at time.Time
	op.waitUntil(t, "the hook run for "+event, func() bool {
		data, _ := os.ReadFile(filepath.Join(root, "record", "events"))
		text := string(data)
		for _, line := range strings.Split(text, "\n") {
			stamp, events, _ := strings.Cut(line, " ")
			if strings.Contains(","+events+",", ","+event+",") {
				s, err := strconv.ParseFloat(stamp, 64)
				if err != nil {
					t.Fatalf("record line %q: %v", line, err)
				}
				at = time.Unix(0, int64(s*float64(time.Second)))
				return true
			}
		}
		return false
	})
	return at
}

var watchesDownLine = regexp.MustCompile(`(?m)^addon_operator_kube_watches_down (\S+)$`)

// watchesDown reads the gauge of watches down from /metrics.
func watchesDown(t *testing.T, op *operator) float64 {
	t.Helper()
	_, body := op.get(t, "/metrics")
	m := watchesDownLine.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("/metrics has no addon_operator_kube_watches_down")
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatalf("kube_watches_down %q: %v", m[1], err)
	}
	return v
}

// waitDropped waits for the WARN of a watch dropped with fields: its
// message names the call that failed first, the watch or the relist that
// follows a watch the apiserver closed as it stopped.
func waitDropped(t *testing.T, op *operator, fields map[string]any) {
	t.Helper()
	op.waitLog(t, 60*time.Second, fmt.Sprintf("watch dropped %v", fields), func(recs []map[string]any) bool {
		for _, rec := range recs {
			if matches(rec, "watch dropped: cannot watch; retrying", fields) ||
				matches(rec, "watch dropped: cannot list; retrying", fields) {
				return true
			}
		}
		return false
	})
}
