package e2e_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// remediationModules is 010-web, scenario.ImmutableChart("web"), with
// module.yaml moduleYAML ("" for none).
func remediationModules(moduleYAML string) map[string]string {
	files := map[string]string{"modules/values.yaml": "webEnabled: true\n"}
	for path, text := range scenario.ImmutableChart("web") {
		files["modules/010-web/"+path] = text
	}
	if moduleYAML != "" {
		files["modules/010-web/module.yaml"] = moduleYAML
	}
	return files
}

// startWeb runs the operator on remediationModules and waits until web's
// revision 1 (value a) is deployed.
func startWeb(t *testing.T, moduleYAML string, env ...string) (*operator, string, string) {
	t.Helper()
	root, ns := tree(t, remediationModules(moduleYAML)), kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{})
	op := startSpec(t, root, ns, append(retryIn20s, env...)...)
	op.waitReady(t)
	if value, extra := webObjects(t, ns); value != "a" || extra {
		t.Fatalf("after the first converge web-0 = %q, web-extra there: %t; want a and none", value, extra)
	}
	return op, root, ns
}

// webObjects are web-0's value and whether web-extra is there.
func webObjects(t *testing.T, ns string) (string, bool) {
	t.Helper()
	value := scenario.ConfigMapData(t, kube, ns, "web-0")["value"]
	return value, scenario.ConfigMapData(t, kube, ns, "web-extra") != nil
}

// With onUpgradeFailure: rollback (module.yaml, or the setting for every
// module), an upgrade that fails on an immutable field is rolled back in
// the same run: web-0 holds a again and web-extra, which the failed
// revision wrote, is gone; the module is failing with the upgrade's
// error; a fix of the values upgrades it at once. Without it the failed
// revision's objects stay, as always.
func TestUpgradeFailureRolledBack(t *testing.T) {
	for _, tc := range []struct {
		name, moduleYAML string
		env              []string
	}{
		{name: "module.yaml", moduleYAML: "remediation:\n  onUpgradeFailure: rollback\n"},
		{name: "setting", env: []string{"ADDON_OPERATOR_REMEDIATION_ON_UPGRADE_FAILURE=rollback"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, _, ns := startWeb(t, tc.moduleYAML, tc.env...)
			scenario.PutConfigMap(t, kube, ns, map[string]string{"web": "value: b\nextra: true\n"})
			rec := op.waitRecord(t, "helm step failed; release rolled back", nil)
			if rec["revision"] != 1.0 {
				t.Fatalf("rolled back to %v, want revision 1", rec["revision"])
			}
			if value, extra := webObjects(t, ns); value != "a" || extra {
				t.Fatalf("after the rollback web-0 = %q, web-extra there: %t; want a and none", value, extra)
			}
			why := op.cli(t, "module", "why", "web")
			if !strings.Contains(why, "immutable") || !strings.Contains(why, "remedied  rolled back to revision 1") {
				t.Fatalf("module why web lacks the upgrade's error:\n%s", why)
			}
			t.Logf("module why web:\n%s", why)
			scenario.PutConfigMap(t, kube, ns, map[string]string{"web": "value: a\nextra: true\n"})
			op.waitLog(t, 10*time.Second, "web-extra deployed", func([]map[string]any) bool {
				_, extra := webObjects(t, ns)
				return extra
			})
		})
	}
	t.Run("none", func(t *testing.T) {
		op, _, ns := startWeb(t, "")
		scenario.PutConfigMap(t, kube, ns, map[string]string{"web": "value: b\nextra: true\n"})
		op.waitRecord(t, "task failed; retrying", nil)
		if _, extra := webObjects(t, ns); !extra {
			t.Fatal("without remediation the failed revision's web-extra is gone")
		}
	})
}

// With retries: 3 the third failed run of bad in a row stalls it: no
// fourth run comes within three times the retry delay; module why, queue
// list and module_stalled say so; a change of its section runs it at
// once, and it is stalled no more.
func TestRetriesEndInStalled(t *testing.T) {
	files := failingModules()
	files["modules/010-bad/module.yaml"] = "remediation:\n  retries: 3\n"
	f := &failing{root: tree(t, files), ns: kube.Namespace(t), cm: map[string]string{}}
	scenario.PutConfigMap(t, kube, f.ns, f.cm)
	f.op = startSpec(t, f.root, f.ns, "RETRY_POLICY=fixed", "RETRY_INITIAL_DELAY=1s")
	f.op.waitReady(t)
	f.set(t, "bad", "fail: true")
	f.op.waitRecord(t, "task failed; stalled: not retried until something changes for its module", nil)
	failedRuns := func() int { return count(lines(f.root, "order"), `bad before {"fail":true}`) }
	if n := failedRuns(); n != 3 {
		t.Fatalf("%d failed runs of bad when it stalled, want 3", n)
	}
	// No fourth run can come: the queue holds the stalled task with no
	// retry armed (the queue core's TestStalledRunWaitsForAChange shows
	// that such a task runs again only when a run of its module replaces it).
	if task := stalledTask(t, f.op, "bad"); !task.Stalled || !task.NextRetry.IsZero() || task.Running {
		t.Fatalf("bad's task in /queue: stalled %v, next retry %v, running %v; want stalled with no retry armed",
			task.Stalled, task.NextRetry, task.Running)
	}
	if n := failedRuns(); n != 3 {
		t.Fatalf("%d failed runs of bad after it stalled, want 3", n)
	}
	if why := f.op.cli(t, "module", "why", "bad"); !strings.Contains(why, "stalled after 3 failed runs in a row") {
		t.Fatalf("module why bad:\n%s", why)
	}
	if queues := f.op.cli(t, "queue", "list"); !strings.Contains(queues, "stalled") {
		t.Fatalf("queue list:\n%s", queues)
	}
	stalledMetric := regexp.MustCompile(`(?m)^addon_operator_module_stalled\{module="bad"\} 1$`)
	if _, metrics := f.op.get(t, "/metrics"); !stalledMetric.MatchString(metrics) {
		t.Fatalf("/metrics lacks module_stalled of bad:\n%s", metrics)
	}
	edit := f.set(t, "bad", "fail: false")
	within(t, "bad ran", edit, f.waitOrder(t, `bad before {"fail":false}`, 1), 5*time.Second)
	f.op.waitRecord(t, "module no longer stalled: a run of it was queued", nil)
	f.op.waitLog(t, 10*time.Second, "module_stalled of bad gone", func([]map[string]any) bool {
		_, metrics := f.op.get(t, "/metrics")
		return !stalledMetric.MatchString(metrics)
	})
}

// stalledTask is the task of module in /queue?format=json (the test fails
// when there is none).
func stalledTask(t *testing.T, op *operator, module string) messages.Task {
	t.Helper()
	_, body := op.get(t, "/queue?format=json")
	var snap messages.QueueSnapshot
	if err := json.Unmarshal([]byte(body), &snap); err != nil {
		t.Fatalf("/queue?format=json: %v\n%s", err, body)
	}
	for _, q := range snap.Queues {
		for _, task := range q.Tasks {
			if task.Module == module {
				return task
			}
		}
	}
	t.Fatalf("no task of %s in /queue:\n%s", module, body)
	return messages.Task{}
}
