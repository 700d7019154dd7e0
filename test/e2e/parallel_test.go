package e2e_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parallelModules is three weight groups: 010 (able, beta, gamma), 020
// (delta, epsilon) and 030 (omega alone). Every module records "start NAME" in beforeHelm and
// "end NAME" in afterHelm. able, the first of its group, fails its
// beforeHelm until beta and gamma have ended (at least once): it can only
// succeed if they run while it is being retried (one by one, it would
// fail for ever). gamma's first afterHelm changes its values, which
// re-runs gamma.
func parallelModules() map[string]string {
	files := map[string]string{"modules/values.yaml": "global: {}\nableEnabled: true\nbetaEnabled: true\n" +
		"gammaEnabled: true\ndeltaEnabled: true\nepsilonEnabled: true\nomegaEnabled: true\n"}
	for _, m := range []string{"010-able", "010-beta", "010-gamma", "020-delta", "020-epsilon", "030-omega"} {
		name := m[4:]
		files["modules/"+m+"/values.yaml"] = name + ":\n  x: 1\n"
		files["modules/"+m+"/hooks/after"] = hook(`{"configVersion":"v1","afterHelm":1}`,
			`record "end `+name+`" order; record done `+name+`-done`)
		files["modules/"+m+"/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record "start `+name+`" order`)
	}
	files["modules/010-able/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record "start able" order
record try able-tries
if [[ ! -f $RECORD_DIR/beta-done || ! -f $RECORD_DIR/gamma-done || $(wc -l < $RECORD_DIR/able-tries) -lt 2 ]]; then
  record "fail able" order; echo "beta and gamma not done yet" >&2; exit 1
fi`)
	files["modules/010-gamma/hooks/after"] = hook(`{"configVersion":"v1","afterHelm":1}`, `record "end gamma" order
record done gamma-done
if [[ $(jq .gamma.rerun $VALUES_PATH) == null ]]; then
  echo '[{"op":"add","path":"/gamma/rerun","value":true}]' > $VALUES_JSON_PATCH_PATH
fi`)
	return files
}

// With ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8 the modules of one weight run
// side by side in parallel queues: a failing module is retried in its
// queue while the others of its group finish, a module whose afterHelm
// changed its values runs again within its group, the next group starts
// only when every module of the first has succeeded, a weight of one
// module runs in main as in the original (UPSTREAM §4), and the converge
// completes (/readyz 200).
func TestParallelWeightGroups(t *testing.T) {
	root := tree(t, parallelModules())
	op := startSpec(t, root, kube.Namespace(t), "ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8")
	op.waitReady(t)
	if code, body := op.get(t, "/readyz"); code != 200 {
		t.Fatalf("/readyz %d %s", code, body)
	}
	order := strings.Split(strings.TrimSpace(record(t, root, "order")), "\n")
	t.Logf("order:\n%s", strings.Join(order, "\n"))
	firstSecond := slices.IndexFunc(order, func(l string) bool { return l == "start delta" || l == "start epsilon" })
	if firstSecond < 0 {
		t.Fatalf("the second group never started")
	}
	for _, l := range order[firstSecond:] {
		if strings.HasSuffix(l, "able") || strings.HasSuffix(l, "beta") || strings.HasSuffix(l, "gamma") {
			t.Fatalf("%q after the second group started at line %d", l, firstSecond+1)
		}
	}
	if n := count(order, "end gamma"); n != 2 {
		t.Fatalf("gamma ended %d times, want 2 (its afterHelm changed its values once)", n)
	}
	lastAbleStart := slices.Index(order, "end able") - 1
	if count(order, "fail able") < 1 || lastAbleStart < 0 || order[lastAbleStart] != "start able" ||
		slices.Index(order, "end gamma") > lastAbleStart || slices.Index(order, "end beta") > lastAbleStart {
		t.Fatalf("able should fail, then succeed after beta and gamma ended")
	}
	for _, m := range []string{"delta", "epsilon", "omega"} {
		if count(order, "end "+m) != 1 {
			t.Fatalf("%s did not run once", m)
		}
	}
	if omega := slices.Index(order, "start omega"); omega < slices.Index(order, "end delta") || omega < slices.Index(order, "end epsilon") {
		t.Fatalf("omega started before the second group had ended")
	}
	checkRunQueues(t, op)
	_, text := op.get(t, "/queue")
	if !strings.Contains(text, "Queue 'parallel_queue_7': length 0") || !strings.Contains(op.cli(t, "queue", "list"), "parallel_queue_0") {
		t.Fatalf("parallel queues not shown:\n%s", text)
	}
}

// checkRunQueues checks where the hooks of TestParallelWeightGroups ran,
// by their metrics: a module of a weight group in a parallel queue, the
// module alone in its weight in main.
func checkRunQueues(t *testing.T, op *operator) {
	t.Helper()
	_, metrics := op.get(t, "/metrics")
	const run = `addon_operator_module_hook_run_seconds_count{activation="OperatorStartup",binding="beforeHelm",hook="hooks/before",`
	for _, want := range []string{run + `module="delta",queue="parallel_queue_`, run + `module="omega",queue="main"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %s", want)
		}
	}
}

func count(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if l == s {
			n++
		}
	}
	return n
}

// The examples with every module dir of one weight (001-) converge with
// ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8 as they do one by one: one run
// graph of four modules, the same objects, the parallel queues in the
// metrics, and a restart with nothing changed upgrades no release.
func TestExamplesInOneWeightGroup(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	for _, dir := range []string{"002-greeter", "003-optional", "004-greetings"} {
		if err := os.Rename(filepath.Join(root, "modules", dir), filepath.Join(root, "modules", "001"+dir[3:])); err != nil {
			t.Fatal(err)
		}
	}
	client := applyExampleConfigMap(t, root, ns)
	op := startOperator(t, root, ns, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8")
	op.waitReady(t)
	op.waitIdle(t)
	rec := op.waitRecord(t, "module run graph done", nil)
	if mods, _ := rec["modules"].(float64); mods != 4 {
		t.Fatalf("module run graph done %v, want the four example modules", rec)
	}
	if got := configMap(t, client, ns, "greeter")["message"]; got != "hello from the ConfigMap" {
		t.Fatalf("greeter message %q", got)
	}
	if got := configMap(t, client, ns, "echo-server")["computedBy"]; got != "hooks/compute.sh" {
		t.Fatalf("echo-server computedBy %q", got)
	}
	checkGreeterObjectPatches(t, client, ns)
	_, metrics := op.get(t, "/metrics")
	for _, want := range []string{`addon_operator_tasks_queue_length{queue="parallel_queue_0"} 0`,
		`addon_operator_tasks_queue_length{queue="parallel_queue_7"} 0`, `addon_operator_convergence_total{activation="OperatorStartup"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %s", want)
		}
	}
	op.stop(t)
	again := startOperator(t, root, ns, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8")
	again.waitReady(t)
	if n := again.count("helm", map[string]any{"upgraded": true}); n != 0 {
		t.Fatalf("restart with nothing changed upgraded %d releases\n%s", n, again.logText())
	}
}
