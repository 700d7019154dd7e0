package e2e_test

import (
	"slices"
	"strings"
	"testing"
)

// allowFailure covers every run of its binding, Synchronization included
// (DESIGN §4): a failed Synchronization run of a global or a module hook,
// in the main queue or a named one, is logged at WARN, counted in
// *_hook_allowed_errors_total and dropped (never retried), and the
// converge goes on: the operator gets ready.
func TestAllowFailureSynchronization(t *testing.T) {
	ns := kube.Namespace(t)
	createConfigMap(t, ns, "cm-af", map[string]string{"af": "x"})
	allowed := `,"allowFailure":true`
	failSync := func(file string) string {
		return `ctx=$BINDING_CONTEXT_PATH
if [[ $(jq -r '.[0].type' $ctx) == Synchronization ]]; then record "$(jq -r '.[0].binding' $ctx)" ` + file + `; exit 1; fi`
	}
	root := tree(t, map[string]string{
		// A named queue's binding waits for its Synchronization
		// (waitForSynchronization), so start-up waits for it too.
		"global-hooks/sync-fail": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("main-cms", ns, "af", allowed)+`,`+
			cmBinding("named-cms", ns, "af", allowed+`,"queue":"named"`)+`]}`, failSync("global-sync")),
		"modules/values.yaml":              "tolerantEnabled: true\n",
		"modules/001-tolerant/values.yaml": "tolerant: {}\n",
		// named-wait runs inside the module run; named-free in its queue.
		"modules/001-tolerant/hooks/sync-fail": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("main-cms", ns, "af", allowed)+`,`+
			cmBinding("named-wait", ns, "af", allowed+`,"queue":"named"`)+`,`+
			cmBinding("named-free", ns, "af", allowed+`,"queue":"named","waitForSynchronization":false`)+`]}`,
			failSync("module-sync")),
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if code, _ := op.get(t, "/readyz"); code != 200 {
		t.Fatalf("/readyz %d after the first converge", code)
	}
	op.waitIdle(t) // a task kept for a retry would keep its queue busy

	checkRanOnce(t, root, "global-sync", "main-cms", "named-cms")
	checkRanOnce(t, root, "module-sync", "main-cms", "named-free", "named-wait")
	_, metrics := op.get(t, "/metrics")
	for _, want := range []string{
		// Runs that start-up queued are its, in main and in the named
		// queues alike (a named queue's Synchronization takes the
		// activation of the task whose watch it comes from).
		`addon_operator_global_hook_allowed_errors_total{activation="OperatorStartup",binding="main-cms",hook="sync-fail",queue="main"} 1`,
		`addon_operator_global_hook_allowed_errors_total{activation="OperatorStartup",binding="named-cms",hook="sync-fail",queue="named"} 1`,
		`addon_operator_module_hook_allowed_errors_total{activation="OperatorStartup",binding="main-cms",hook="hooks/sync-fail",module="tolerant",queue="main"} 1`,
		`addon_operator_module_hook_allowed_errors_total{activation="OperatorStartup",binding="named-wait",hook="hooks/sync-fail",module="tolerant",queue="main"} 1`,
		`addon_operator_module_hook_allowed_errors_total{activation="OperatorStartup",binding="named-free",hook="hooks/sync-fail",module="tolerant",queue="named"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for line := range strings.SplitSeq(metrics, "\n") {
		counted := strings.HasPrefix(line, "addon_operator_global_hook_errors_total{") ||
			strings.HasPrefix(line, "addon_operator_module_hook_errors_total{")
		if counted && !strings.HasSuffix(line, "} 0") {
			t.Errorf("/metrics counts failures that will be retried: %s", line)
		}
	}
	checkAllowedLogs(t, op)
}

// checkRanOnce checks that a hook recorded one Synchronization run of each
// binding.
func checkRanOnce(t *testing.T, root, file string, bindings ...string) {
	t.Helper()
	got := lines(root, file)
	slices.Sort(got)
	if !slices.Equal(got, bindings) {
		t.Fatalf("%s: Synchronization runs %v, want each of %v once", file, got, bindings)
	}
}

// checkAllowedLogs checks the WARN records of the failures: the queue's
// drop of the tasks (global main and named, module named-free), the
// module's for its task and for the runs inside its module run; and no
// retry.
func checkAllowedLogs(t *testing.T, op *operator) {
	t.Helper()
	warn := map[string]any{"level": "WARN"}
	if n := op.count("task failed; dropped as it allows failure", warn); n != 3 {
		t.Errorf("%d tasks dropped at WARN, want 3\n%s", n, op.logText())
	}
	for _, binding := range []string{"main-cms", "named-wait"} {
		fields := map[string]any{"level": "WARN", "hook": "hooks/sync-fail", "binding": binding}
		if n := op.count("hook failed; its binding allows failure, the run goes on", fields); n != 1 {
			t.Errorf("module run's %s failure logged %d times at WARN, want 1", binding, n)
		}
	}
	if n := op.count("task failed; its binding allows failure", warn); n != 1 {
		t.Errorf("module's named-free task failure logged %d times at WARN, want 1", n)
	}
	if n := op.count("task failed; retrying", nil); n != 0 {
		t.Errorf("%d retries, want none\n%s", n, op.logText())
	}
	if n := op.count("task failed", nil); n != 0 {
		t.Errorf("%d task failures logged at ERROR, want none", n)
	}
}
