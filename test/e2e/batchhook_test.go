package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// buildBatchHook builds test/batchhook, a real module-sdk protocol
// executable, to path with the given -X settings (main.mode, main.namespace).
func buildBatchHook(t *testing.T, path string, settings ...string) {
	t.Helper()
	ldflags := ""
	for _, s := range settings {
		ldflags += " -X " + s
	}
	cmd := exec.Command("go", "build", "-ldflags", ldflags, "-o", path, "github.com/addon-actors/addon-operator/test/batchhook")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build batch hook: %v\n%s", err, out)
	}
}

// batchModuleTree is a module batch-module whose hooks/bin is the batch
// executable built with settings.
func batchModuleTree(t *testing.T, settings ...string) string {
	t.Helper()
	root := tree(t, map[string]string{
		"modules/values.yaml":                  "batchModuleEnabled: true\n",
		"modules/001-batch-module/values.yaml": "batchModule: {}\n",
	})
	buildBatchHook(t, filepath.Join(root, "modules/001-batch-module/hooks/bin"), settings...)
	return root
}

// UPSTREAM.md §1: a batch executable's nested hooks run as `hook run N`
// and `hook ready`: the schedule hook on start-up and its schedule, the
// kubernetes hook with Group contexts carrying its snapshot, the readiness
// hook on its own schedule; their values patches and metrics take effect
// and they show under their nested names.
func TestBatchHookModule(t *testing.T) {
	ns := kube.Namespace(t)
	createConfigMap(t, ns, "cm-a", map[string]string{"batch": "yes"})
	op := startSpec(t, batchModuleTree(t, "main.namespace="+ns), ns)
	op.waitReady(t)
	values := func() map[string]any {
		var shown struct{ Values map[string]any }
		if err := json.Unmarshal([]byte(op.cli(t, "module", "values", "batch-module", "-o", "json")), &shown); err != nil {
			t.Fatal(err)
		}
		return shown.Values
	}
	hasValues := func(want map[string]any) func() bool {
		return func() bool {
			got := values()
			for k, v := range want {
				if !reflect.DeepEqual(got[k], v) {
					return false
				}
			}
			return true
		}
	}
	op.waitUntil(t, "values from every nested hook", hasValues(map[string]any{
		"moduleName": "batch-module", "applicationName": "empty", "scheduleBinding": "every-second",
		"kubeContextType": "Group", "configMaps": []any{"cm-a"}, "ready": true,
	}))
	createConfigMap(t, ns, "cm-b", map[string]string{"batch": "yes"})
	op.waitUntil(t, "cm-b in the kubernetes hook's Group snapshot",
		hasValues(map[string]any{"configMaps": []any{"cm-a", "cm-b"}}))
	op.waitUntil(t, "the nested hook's object patch", func() bool {
		return scenario.ConfigMapData(t, kube, ns, "batch-seen")["names"] == "cm-a,cm-b"
	})

	_, metrics := op.get(t, "/metrics/hooks")
	for _, want := range []string{
		`batch_test_runs_total{hook="hooks/bin:schedule:0",key="0",module="batch-module"}`,
		`batch_test_runs_total{hook="hooks/bin:configmaps:1",key="1",module="batch-module"}`,
		`batch_test_ready{hook="hooks/bin-readiness",module="batch-module"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics/hooks lacks %s\n%s", want, metrics)
		}
	}
	hooks := op.cli(t, "hooks", "-o", "json")
	for _, name := range []string{"hooks/bin:schedule:0", "hooks/bin:configmaps:1", "hooks/bin-readiness"} {
		if !strings.Contains(hooks, `"module/batch-module:`+name+`"`) {
			t.Errorf("hooks lacks %s:\n%s", name, hooks)
		}
	}
}

// A batch executable that prints a broken config, or hangs on `hook list`,
// leaves its module out with an error naming the file (and the nested
// hook); the operator goes on.
func TestBatchHookBadExecutables(t *testing.T) {
	cases := []struct {
		name, mode string
		env        []string
		want       []string
	}{
		{"broken config", "broken", nil,
			[]string{"hooks/bin", `hooks[1] "configmaps"`, "kubernetes[0].kind: bad value: kind is required"}},
		{"hanging hook list", "hang", []string{"ADDON_OPERATOR_BATCH_HOOK_PROBE_TIMEOUT=1s"},
			[]string{"probe batch hook", "hooks/bin", "hook list timed out after 1s"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ns := kube.Namespace(t)
			op := startSpec(t, batchModuleTree(t, "main.mode="+tc.mode), ns, tc.env...)
			op.waitReady(t)
			rec := op.waitRecord(t, module.StartFailedMessage, nil)
			msg, _ := rec["err"].(string)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not name %q", msg, w)
				}
			}
		})
	}
}

// A batch executable in the global hooks dir's hooks/ subdir: nested hooks
// named `<h>-<name>-<key>`, MODULE_NAME=global, global values patched.
func TestBatchHookGlobal(t *testing.T) {
	ns := kube.Namespace(t)
	createConfigMap(t, ns, "cm-g", map[string]string{"batch": "yes"})
	root := tree(t, map[string]string{"modules/values.yaml": "global: {}\n"})
	buildBatchHook(t, filepath.Join(root, "global-hooks/hooks/bin"), "main.namespace="+ns, "main.valuesKey=global")
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitUntil(t, "global values from every nested hook", func() bool {
		var shown struct{ Values map[string]any }
		if err := json.Unmarshal([]byte(op.cli(t, "module", "values", "--global", "-o", "json")), &shown); err != nil {
			t.Fatal(err)
		}
		v := shown.Values
		return v["moduleName"] == "global" && v["kubeContextType"] == "Group" &&
			reflect.DeepEqual(v["configMaps"], []any{"cm-g"}) && v["ready"] == true
	})
	_, metrics := op.get(t, "/metrics/hooks")
	for _, want := range []string{`hook="hooks/bin-schedule-0"`, `hook="hooks/bin-configmaps-1"`, `hook="hooks/bin-readiness"`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics/hooks lacks %s\n%s", want, metrics)
		}
	}
}

// UPSTREAM.md §1.8: a global batch executable whose `hook config` is
// broken stops start-up, with an error naming the file and the nested
// hook; a module's would only leave its module out.
func TestBatchHookGlobalBrokenConfigStopsStartup(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{"modules/values.yaml": "global: {}\n"})
	buildBatchHook(t, filepath.Join(root, "global-hooks/hooks/bin"), "main.mode=broken", "main.valuesKey=global")
	op := startSpec(t, root, ns)
	if code := op.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with a broken global batch hook\n%s", op.logText())
	}
	logs := op.logText()
	for _, want := range []string{"global-hooks/hooks/bin", `hooks[1] \"configmaps\"`, "kubernetes[0].kind: bad value: kind is required"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the error does not name %q\n%s", want, logs)
		}
	}
}

// UPSTREAM.md §1.6: the readiness hook runs as a schedule hook; a failed
// run is a failed task, retried until it succeeds.
func TestBatchHookReadinessFailureIsRetried(t *testing.T) {
	ns := kube.Namespace(t)
	root := batchModuleTree(t, "main.namespace="+ns)
	gate := filepath.Join(t.TempDir(), "not-ready")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	op := startSpec(t, root, ns, "BATCH_READY_FAIL="+gate)
	waitFailure(t, op, "hooks/bin-readiness")
	waitFailure(t, op, `{"message":"execute: not ready: `+gate+` exists"}`)
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the readiness hook's values patch", func() bool {
		var shown struct{ Values map[string]any }
		err := json.Unmarshal([]byte(op.cli(t, "module", "values", "batch-module", "-o", "json")), &shown)
		return err == nil && shown.Values["ready"] == true
	})
}
