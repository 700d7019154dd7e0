package e2e_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// Module requirements (module.yaml, spec/REQUIREMENTS.md) through the
// built binary: an unmet one disables the module and deletes its release,
// a cycle is refused, and a module runs after what it requires.

// reqModule adds the enabled module dir (NNN-name) to files: a chart of
// version (one ConfigMap named after the release), hooks that record
// "start NAME" (beforeHelm) and "end NAME" (afterHelm) into order, and a
// module.yaml with requirements (the YAML under `requirements:`) unless "".
func reqModule(files map[string]string, dir, version, requirements string) {
	name, p := dir[strings.Index(dir, "-")+1:], "modules/"+dir+"/"
	files[p+"Chart.yaml"] = "apiVersion: v2\nname: " + name + "\nversion: " + version + "\n"
	files[p+"templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name | quote }}\n"
	files[p+"hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record "start `+name+`" order`)
	files[p+"hooks/after"] = hook(`{"configVersion":"v1","afterHelm":1}`, `record "end `+name+`" order`)
	if requirements != "" {
		files[p+"module.yaml"] = "requirements:\n" + requirements
	}
	files["modules/values.yaml"] += name + "Enabled: true\n"
}

// requires is requirements.modules of module.yaml: name, constraint, ...
func requires(pairs ...string) string {
	out := "  modules:\n"
	for i := 0; i < len(pairs); i += 2 {
		out += fmt.Sprintf("    %s: %q\n", pairs[i], pairs[i+1])
	}
	return out
}

// releaseGone tells whether release name does not exist in ns.
func releaseGone(t *testing.T, ns, name string) bool {
	t.Helper()
	_, err := action.NewGet(plainHelm(t, ns)).Run(name)
	return errors.Is(err, driver.ErrReleaseNotFound)
}

// whyHas fails unless `module why NAME` has a line with every part.
func whyHas(t *testing.T, op *operator, module string, parts ...string) {
	t.Helper()
	if text := op.cli(t, "module", "why", module); !lineWith(text, parts...) {
		t.Fatalf("module why %s: no line with %q\n%s", module, parts, text)
	}
}

func metricHas(t *testing.T, op *operator, want string) {
	t.Helper()
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, want) {
		t.Fatalf("/metrics lacks %s", want)
	}
}

// startRequiringA runs a 1.0.0 and the module in dir with requirements,
// until the first converge is done.
func startRequiringA(t *testing.T, dir, version, requirements string) (root, ns string, op *operator) {
	t.Helper()
	files := map[string]string{"modules/values.yaml": ""}
	reqModule(files, "010-a", "1.0.0", "")
	reqModule(files, dir, version, requirements)
	root, ns = tree(t, files), kube.Namespace(t)
	op = startSpec(t, root, ns)
	op.waitReady(t)
	return root, ns, op
}

// b requires a: both are installed; a disabled by the ConfigMap disables
// b, and both releases are deleted, b's for its unmet requirement; module
// why and the metric say why.
func TestRequirementUnmetDisablesAndDeletes(t *testing.T) {
	_, ns, op := startRequiringA(t, "020-b", "0.1.0", requires("a", ">= 1.0.0"))
	releaseDeployed(t, ns, "a")
	releaseDeployed(t, ns, "b")
	if _, body := op.get(t, "/metrics"); strings.Contains(body, "addon_operator_module_requirements_unmet{") {
		t.Fatalf("a module counted as unmet while all are met")
	}

	scenario.PutConfigMap(t, kube, ns, map[string]string{"aEnabled": "false"})
	rec := op.waitRecord(t, "uninstalled release of disabled module", map[string]any{"release": "b"})
	const unmet = "dependency 'a' is disabled"
	if rec["reason"] != "turned off because of unmet requirements: "+unmet {
		t.Fatalf("b's delete: %v", rec)
	}
	op.waitUntil(t, "a and b deleted", func() bool { return releaseGone(t, ns, "a") && releaseGone(t, ns, "b") })
	whyHas(t, op, "b", "ENABLED", "false", unmet)
	whyHas(t, op, "b", "requires", "a", ">= 1.0.0")
	whyHas(t, op, "b", "unmet", unmet)
	metricHas(t, op, `addon_operator_module_requirements_unmet{module="b"} 1`)
	op.expectEnabled(t)
}

// c requires a ">= 2.0.0 !optional" and a's chart is 1.0.0: while a is
// enabled c is disabled by the version; once a is disabled the optional
// requirement has no say and c is installed.
func TestRequirementVersionAndOptional(t *testing.T) {
	root, ns, op := startRequiringA(t, "020-c", "0.1.0", requires("a", ">= 2.0.0 !optional"))
	op.waitIdle(t)
	releaseDeployed(t, ns, "a")
	if !releaseGone(t, ns, "c") || slices.Contains(lines(root, "order"), "start c") {
		t.Fatalf("c ran though a's version does not meet its constraint: %v", lines(root, "order"))
	}
	whyHas(t, op, "c", "unmet", "dependency 'a' not meet the version constraint: the '1.0.0' version does not satisfy the '>= 2.0.0' constraint")
	metricHas(t, op, `addon_operator_module_requirements_unmet{module="c"} 1`)
	op.expectEnabled(t, "a")

	scenario.PutConfigMap(t, kube, ns, map[string]string{"aEnabled": "false"})
	op.waitUntil(t, "a deleted, c installed", func() bool { return releaseGone(t, ns, "a") && !releaseGone(t, ns, "c") })
	releaseDeployed(t, ns, "c")
	op.expectEnabled(t, "c")
	if _, body := op.get(t, "/metrics"); strings.Contains(body, `addon_operator_module_requirements_unmet{module="c"}`) {
		t.Fatalf("c still counted as unmet")
	}
}

// requirements.kubernetes is checked against the apiserver's version
// (the test cluster's is 1.3x).
func TestRequirementKubernetesVersion(t *testing.T) {
	files := map[string]string{"modules/values.yaml": ""}
	reqModule(files, "010-k", "0.1.0", "  kubernetes: \">= 99.0\"\n")
	reqModule(files, "020-k2", "0.1.0", "  kubernetes: \">= 1.20\"\n")
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	releaseDeployed(t, ns, "k2")
	if !releaseGone(t, ns, "k") {
		t.Fatalf("k installed on a cluster older than 99.0")
	}
	op.expectEnabled(t, "k2")
	whyHas(t, op, "k", "unmet", "current kubernetes version is not suitable: ")
	metricHas(t, op, `addon_operator_module_requirements_unmet{module="k"} 1`)
}

// x requires y and y requires x: the operator does not start, and says
// which modules form the cycle.
func TestRequirementCycleAtStartUpIsFatal(t *testing.T) {
	files := map[string]string{"modules/values.yaml": ""}
	reqModule(files, "010-x", "0.1.0", requires("y", ">= 0.0.0"))
	reqModule(files, "020-y", "0.1.0", requires("x", ">= 0.0.0"))
	root := tree(t, files)
	op := startSpec(t, root, kube.Namespace(t))
	if code := op.waitExit(t, 60*time.Second); code != 1 {
		t.Fatalf("exit code %d, want 1\n%s", code, op.logText())
	}
	op.waitLog(t, time.Second, "the cycle named", func(recs []map[string]any) bool {
		return slices.ContainsFunc(recs, func(r map[string]any) bool {
			msg, _ := r["msg"].(string)
			return strings.HasSuffix(msg, "module requirements form a cycle: x -> y -> x")
		})
	})
	if lines(root, "order") != nil {
		t.Fatalf("hooks ran: %v", lines(root, "order"))
	}
}

// While running, a new dir x requiring y, with y's module.yaml changed to
// require x, is refused: logged, counted, noted under `module list`; x is
// not added and y stays installed and enabled. Fixing the cycle inside y's
// dir (its module.yaml removed) is seen at the next look: x is added.
func TestRequirementCycleWhileRunningIsRefused(t *testing.T) {
	files := map[string]string{"modules/values.yaml": "xEnabled: true\n"}
	reqModule(files, "020-y", "0.1.0", "")
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=1s")
	op.waitReady(t)
	op.waitIdle(t)
	releaseDeployed(t, ns, "y")

	writeFiles(t, root, map[string]string{"modules/020-y/module.yaml": "requirements:\n" + requires("x", ">= 0.0.0")})
	staged := map[string]string{}
	reqModule(staged, "010-x", "0.1.0", requires("y", ">= 0.0.0"))
	writeFiles(t, filepath.Join(root, "staging"), staged)
	if err := os.Rename(filepath.Join(root, "staging/modules/010-x"), filepath.Join(root, "modules/010-x")); err != nil {
		t.Fatal(err)
	}
	const cycle = "module requirements form a cycle: x -> y -> x"
	const refused = "modules dirs refused; the last good set of modules stays in force"
	if rec := op.waitRecord(t, refused, nil); rec["err"] != cycle {
		t.Fatalf("refusal: %v", rec)
	}
	op.indexOf(t, "converge done", op.indexOf(t, refused)) // the converge with the last good set
	metricHas(t, op, "addon_operator_modules_discover_errors_total 1")
	if list := op.cli(t, "module", "list"); !strings.Contains(list, "MODULES: "+cycle+"; the last good set of modules stays in force") {
		t.Fatalf("module list without the MODULES note:\n%s", list)
	}
	if _, ok := op.modules(t)["x"]; ok {
		t.Fatalf("x added from a refused set: %v", op.moduleList(t))
	}
	op.expectEnabled(t, "y")
	releaseDeployed(t, ns, "y")
	if !releaseGone(t, ns, "x") || op.count("uninstalled release of disabled module", nil) > 0 {
		t.Fatalf("x installed or something uninstalled\n%s", op.logText())
	}
	// The cycle fixed inside y's dir: the next look sees the module.yaml
	// change, the set is taken, x is added and installed.
	if err := os.Remove(filepath.Join(root, "modules/020-y/module.yaml")); err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, "module requirements no longer form a cycle; the modules dirs are taken as they are", nil)
	op.waitUntil(t, "x installed", func() bool { return !releaseGone(t, ns, "x") })
	if list := op.cli(t, "module", "list"); strings.Contains(list, "MODULES:") {
		t.Fatalf("module list still has the MODULES note:\n%s", list)
	}
}

// low (weight 010) requires high (weight 020): high runs, and ends, before
// low starts, one by one and with parallel runs.
func TestRequirementOrder(t *testing.T) {
	inBothRunModes(t, func(t *testing.T, parallel string) {
		files := map[string]string{"modules/values.yaml": ""}
		reqModule(files, "010-low", "0.1.0", requires("high", ">= 0.0.0"))
		reqModule(files, "020-high", "0.1.0", "")
		root := tree(t, files)
		op := startSpec(t, root, kube.Namespace(t), parallel)
		op.waitReady(t)
		want := []string{"start high", "end high", "start low", "end low"}
		if got := lines(root, "order"); !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v", got, want)
		}
		if !strings.Contains(op.cli(t, "queue", "list"), "parallel_queue_0") {
			t.Fatalf("the runs did not go through the parallel queues")
		}
	})
}

// root's beforeHelm always fails: dep, which requires root, waits (module
// why says for what), while other, which requires only base, converges
// though its weight is above root's.
func TestRequirementFailingModuleHoldsOnlyDependents(t *testing.T) {
	inBothRunModes(t, func(t *testing.T, parallel string) {
		files := map[string]string{"modules/values.yaml": ""}
		reqModule(files, "001-base", "0.1.0", "")
		reqModule(files, "010-root", "0.1.0", "")
		files["modules/010-root/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, "echo root is broken >&2; exit 1")
		reqModule(files, "020-dep", "0.1.0", requires("root", ">= 0.0.0"))
		reqModule(files, "030-other", "0.1.0", requires("base", ">= 0.0.0"))
		root, ns := tree(t, files), kube.Namespace(t)
		op := startSpec(t, root, ns, parallel, "RETRY_INITIAL_DELAY=60s", "RETRY_MAX_DELAY=60s")
		op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 1.0})
		op.waitRecord(t, "helm", map[string]any{"module": "other"})
		releaseDeployed(t, ns, "base")
		releaseDeployed(t, ns, "other")
		rootWhy := op.why(t, "root")
		if rootWhy.Retry == nil || !strings.Contains(rootWhy.Retry.LastError, "root is broken") {
			t.Fatalf("root: %+v", rootWhy)
		}
		want := "waiting for root: " + strings.ReplaceAll(strings.TrimSpace(rootWhy.Retry.LastError), "\n", " ")
		if got := op.why(t, "dep").Summary; got != want {
			t.Fatalf("module why dep: %q, want %q", got, want)
		}
		if got := lines(root, "order"); slices.Contains(got, "start dep") || !releaseGone(t, ns, "dep") {
			t.Fatalf("dep ran before root succeeded: %v", got)
		}
	})
}
