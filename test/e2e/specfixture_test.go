package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// The spec scenarios run the built binary on a tree of modules and hooks
// the test writes. Hooks record what they saw with `record TEXT FILE`
// into $RECORD_DIR, which the test reads.

// tree writes files under a new temp dir and returns it.
func tree(t *testing.T, files map[string]string) string {
	return scenario.TempTree(t, files, 0o755)
}

// specTree is tree with the global openapi/ files made plain files: every
// executable file under the global hooks dir is a hook.
func specTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := tree(t, files)
	for name := range files {
		if strings.HasPrefix(name, "global-hooks/openapi/") {
			if err := os.Chmod(filepath.Join(root, name), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// writeFiles writes executable files under root (hooks must be, the rest
// does not mind).
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	scenario.WriteTree(t, root, files, 0o755)
}

// startSpec runs the operator on root in ns with $RECORD_DIR set.
func startSpec(t *testing.T, root, ns string, env ...string) *operator {
	t.Helper()
	return startOperator(t, root, ns, append([]string{"RECORD_DIR=" + filepath.Join(root, "record")}, env...)...)
}

// inBothRunModes runs test as two subtests: with module runs one by one
// (spec order) and in parallel queues; parallel is the mode's setting,
// for the operator's environment.
func inBothRunModes(t *testing.T, test func(t *testing.T, parallel string)) {
	t.Helper()
	for _, n := range []string{"1", "8"} {
		t.Run("parallel="+n, func(t *testing.T) { test(t, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS="+n) })
	}
}

// record reads what hooks recorded into file name.
func record(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "record", name))
	if err != nil {
		t.Fatalf("record %s: %v", name, err)
	}
	return string(data)
}

// moduleState is a module as `addon-operator module list -o json` shows it.
type moduleState struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	LastRun string `json:"lastRun"`
	Phase   string `json:"phase"`
	LastErr string `json:"lastError"`
	Tasks   int    `json:"tasks"`
	// DirError says why the module's dir cannot be seen.
	DirError string `json:"dirError"`
}

// moduleList asks the running operator for its modules, in the order the
// CLI lists them.
func (op *operator) moduleList(t *testing.T) []moduleState {
	t.Helper()
	var list []moduleState
	if err := json.Unmarshal([]byte(op.cli(t, "module", "list", "-o", "json")), &list); err != nil {
		t.Fatalf("module list: %v", err)
	}
	return list
}

// modules is moduleList by name.
func (op *operator) modules(t *testing.T) map[string]moduleState {
	t.Helper()
	out := map[string]moduleState{}
	for _, m := range op.moduleList(t) {
		out[m.Name] = m
	}
	return out
}

// enabledModules lists the enabled modules.
func (op *operator) enabledModules(t *testing.T) []string {
	t.Helper()
	out := []string{}
	for _, m := range op.moduleList(t) {
		if m.Enabled {
			out = append(out, m.Name)
		}
	}
	return out
}

// expectEnabled checks the names of the enabled modules, in order.
func (op *operator) expectEnabled(t *testing.T, want ...string) {
	t.Helper()
	if got := op.enabledModules(t); !slices.Equal(got, want) {
		t.Fatalf("enabled modules %v, want %v", got, want)
	}
}

// waitUntil checks cond now and after every "queues idle" record from now
// on, until it holds: every reaction this waits for ends with the queues
// going idle.
func (op *operator) waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	from := op.logLen()
	for !cond() {
		op.waitLog(t, 60*time.Second, what+` (then "queues idle")`, func(recs []map[string]any) bool {
			for ; from < len(recs); from++ {
				if recs[from]["msg"] == "queues idle" {
					from++
					return true
				}
			}
			return false
		})
	}
}

func (op *operator) logLen() int {
	op.mu.Lock()
	defer op.mu.Unlock()
	return len(op.logs)
}

// Short names for the scenario package's hook helpers.
const recordLib = scenario.RecordLib

func hook(config, body string) string { return scenario.Hook(config, body) }
