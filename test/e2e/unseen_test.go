package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// danglingTree is module alpha (behind the symlink modules/001-alpha ->
// volume/alpha, with a beforeHelm hook recording "alpha" into "ran") and
// the others, each an enabled cmChart recording its afterDeleteHelm; it
// returns the root, the link and its target.
func danglingTree(t *testing.T, others ...string) (root, link, target string) {
	t.Helper()
	flags := "alphaEnabled: true\n"
	for _, m := range others {
		flags += m + "Enabled: true\n"
	}
	files := moduleTree(map[string]string{"modules/values.yaml": flags}, append([]string{"alpha"}, others...)...)
	root = t.TempDir()
	vol := map[string]string{}
	for k, v := range files {
		if rest, ok := strings.CutPrefix(k, "modules/alpha/"); ok {
			vol["volume/alpha/"+rest] = v
			continue
		}
		vol[k] = v
	}
	vol["volume/alpha/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record alpha ran`)
	writeFiles(t, root, vol)
	link, target = filepath.Join(root, "modules", "001-alpha"), filepath.Join(root, "volume", "alpha")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return root, link, target
}

// startUnmounted converges root once (until release is installed), takes
// target away (the link to it dangles) and starts the operator again,
// checking the modules every 300ms, until its queues are idle.
func startUnmounted(t *testing.T, root, target, release string) (string, *operator) {
	t.Helper()
	ns := kube.Namespace(t)
	convergeOnce(t, root, ns, release)
	if err := os.Rename(target, target+"-unmounted"); err != nil {
		t.Fatal(err)
	}
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=300ms")
	op.waitReady(t)
	op.waitIdle(t)
	return ns, op
}

// A module dir that is a dangling symlink at start-up is treated as it is
// while running: the operator starts and converges the other modules, the
// module's earlier release stays deployed (neither run, deleted nor
// purged), an ERROR names the dir, module list, module why and a metric
// show it; the link fixed, the module is picked up and runs.
func TestDanglingModuleSymlinkAtStartUp(t *testing.T) {
	root, link, target := danglingTree(t, "beta", "gamma")
	ns, op := startUnmounted(t, root, target, "alpha")
	rec := op.waitRecord(t, "module dir cannot be seen; its release is kept, and it is neither run nor deleted until it can",
		map[string]any{"module": "alpha"})
	if rec["level"] != "ERROR" || rec["dir"] != link {
		t.Fatalf("the start-up record does not name %s at ERROR: %v", link, rec)
	}
	for _, m := range []string{"alpha", "beta", "gamma"} {
		releaseDeployed(t, ns, m)
	}
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil || op.count("purged release without a module dir", nil) > 0 {
		t.Fatalf("a module deleted or purged: %s\n%s", lines(root, "deleted"), op.logText())
	}
	if !strings.Contains(op.modules(t)["alpha"].DirError, link) {
		t.Fatalf("module list without alpha's dir error: %+v", op.moduleList(t))
	}
	if why := op.cli(t, "module", "why", "alpha"); !strings.Contains(why, "dir cannot be seen") {
		t.Fatalf("module why alpha:\n%s", why)
	}
	metricHas(t, op, `addon_operator_module_dir_unseen{module="alpha"} 1`)
	ran := len(lines(root, "ran"))

	if err := os.Rename(target+"-unmounted", target); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "alpha picked up and run", func() bool {
		st, ok := op.modules(t)["alpha"]
		return ok && st.DirError == "" && st.LastRun == "ModuleRun" && len(lines(root, "ran")) > ran
	})
	releaseDeployed(t, ns, "alpha")
	if _, body := op.get(t, "/metrics"); strings.Contains(body, `module_dir_unseen{module="alpha"} 1`) {
		t.Fatalf("alpha still counted unseen")
	}
}

// GLOBAL_HOOKS_DIR missing at start-up stops the operator with an error
// naming it; the releases it had installed stay.
func TestMissingGlobalHooksDirAtStartUpIsFatal(t *testing.T) {
	root := tree(t, moduleTree(map[string]string{"modules/values.yaml": "alphaEnabled: true\n"}, "alpha"))
	ns := kube.Namespace(t)
	convergeOnce(t, root, ns, "alpha")

	missing := filepath.Join(root, "unmounted-global-hooks")
	op := startSpec(t, root, ns, "GLOBAL_HOOKS_DIR="+missing)
	if code := op.waitExit(t, 60*time.Second); code != 1 {
		t.Fatalf("exit code %d, want 1\n%s", code, op.logText())
	}
	if out := op.logText(); !strings.Contains(out, "GLOBAL_HOOKS_DIR "+missing+" cannot be read") || strings.Contains(out, "first converge done") {
		t.Fatalf("exit without naming %s, or converged\n%s", missing, out)
	}
	releaseDeployed(t, ns, "alpha")
}

// The global hooks dir gone while running, where a global hook had enabled
// a module: an ERROR names it; a converge meanwhile fails at the global
// hook (retried) and disables nothing, so the module and its release stay;
// the dir back, the hook runs again and the converge ends.
func TestGlobalHooksDirGoneWhileRunning(t *testing.T) {
	files := moduleTree(map[string]string{"modules/values.yaml": "alphaEnabled: false\n",
		"global-hooks/enable": hook(`{"configVersion":"v1","beforeAll":1}`, `record enable ran
echo '[{"op":"add","path":"/alphaEnabled","value":true}]' > $VALUES_JSON_PATCH_PATH`)}, "alpha")
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=300ms")
	op.waitReady(t)
	op.waitIdle(t)
	releaseDeployed(t, ns, "alpha")

	dir := filepath.Join(root, "global-hooks")
	if err := os.Rename(dir, dir+"-unmounted"); err != nil {
		t.Fatal(err)
	}
	rec := op.waitRecord(t, "global hooks dir cannot be read; the global hooks keep their last good state, their runs fail and are retried until it can", nil)
	if rec["level"] != "ERROR" || rec["dir"] != dir {
		t.Fatalf("the record does not name %s at ERROR: %v", dir, rec)
	}
	converges := op.count("converge done", nil)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "step: 2\n"})
	op.waitRecord(t, "task failed; retrying", map[string]any{"task": "main:GlobalHookRun:enable:beforeAll"})
	releaseDeployed(t, ns, "alpha")
	op.expectEnabled(t, "alpha")
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil {
		t.Fatalf("alpha deleted while the global hooks dir was away")
	}

	ran := len(lines(root, "ran"))
	if err := os.Rename(dir+"-unmounted", dir); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "the global hook ran again and the converge ended", func() bool {
		return len(lines(root, "ran")) > ran && op.count("converge done", nil) > converges
	})
	op.expectEnabled(t, "alpha")
	releaseDeployed(t, ns, "alpha")
}

// A module that requires a module whose dir cannot be seen is held with
// it, not judged unmet: its release stays (a dangling link must not
// uninstall a module that needs the one behind it), module why says why,
// and it runs again once the link is fixed.
func TestRequirementOnAnUnseenModuleHoldsTheRelease(t *testing.T) {
	root, _, target := danglingTree(t, "beta")
	if err := os.WriteFile(filepath.Join(root, "modules/beta/module.yaml"),
		[]byte("requirements:\n  modules:\n    alpha: \">= 0.0.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns, op := startUnmounted(t, root, target, "beta")
	releaseDeployed(t, ns, "beta")
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil {
		t.Fatalf("a module deleted: %s", lines(root, "deleted"))
	}
	if why := op.cli(t, "module", "why", "beta"); !strings.Contains(why, "it requires alpha, which is left out of discovery") {
		t.Fatalf("module why beta:\n%s", why)
	}
	if err := os.Rename(target+"-unmounted", target); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "alpha picked up and beta enabled", func() bool {
		return op.modules(t)["alpha"].LastRun == "ModuleRun" && op.modules(t)["beta"].Enabled
	})
	releaseDeployed(t, ns, "beta")
}
