package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// Mistakes that a person or a volume makes must not uninstall anything:
// a modules dir that cannot be seen, a module dir that became a dangling
// symlink, a deleted ConfigMap (issue 16).

// releaseDeployed fails unless release name is deployed in ns and its
// ConfigMap (cmChart's object) exists.
func releaseDeployed(t *testing.T, ns, name string) {
	t.Helper()
	rel, err := action.NewGet(plainHelm(t, ns)).Run(name)
	if err != nil || rel.Info.Status != release.StatusDeployed {
		t.Fatalf("release %s: %v (err %v), want deployed", name, rel, err)
	}
	if scenario.ConfigMapData(t, kube, ns, name) == nil {
		t.Fatalf("release %s: its ConfigMap is gone", name)
	}
}

// moduleTree is cmChart's module plus an afterDeleteHelm hook that records
// into "deleted".
func moduleTree(files map[string]string, dirs ...string) map[string]string {
	for _, dir := range dirs {
		for k, v := range cmChart(dir) {
			files[k] = v
		}
		files["modules/"+dir+"/hooks/deleted"] = hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record `+dir+` deleted`)
	}
	return files
}

// convergeOnce runs the operator on root until its first converge is done
// and stops it; release is then deployed.
func convergeOnce(t *testing.T, root, ns, release string) {
	t.Helper()
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	op.stop(t)
	releaseDeployed(t, ns, release)
}

// A modules dir that is missing at start-up, alone or as one entry of a
// list, stops the operator with an error naming it; the release it had
// installed stays.
func TestMissingModulesDirAtStartUpIsFatal(t *testing.T) {
	root := tree(t, moduleTree(map[string]string{"modules/values.yaml": "alphaEnabled: true\n"}, "alpha"))
	ns := kube.Namespace(t)
	convergeOnce(t, root, ns, "alpha")

	mods, away := filepath.Join(root, "modules"), filepath.Join(root, "unmounted")
	for _, tc := range []struct{ name, dirs, missing string }{
		{"MODULES_DIR missing", away, away},
		{"one entry of a list missing", mods + ":" + away, away},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := startSpec(t, root, ns, "MODULES_DIR="+tc.dirs)
			if code := op.waitExit(t, 60*time.Second); code == 0 {
				t.Fatalf("exit code 0, want non-zero\n%s", op.logText())
			}
			out := op.logText()
			if !strings.Contains(out, "read modules dir "+tc.missing) || !strings.Contains(out, "MODULES_DIR") {
				t.Fatalf("exit without naming %s\n%s", tc.missing, out)
			}
			if strings.Contains(out, "first converge done") || op.count("purged release without a module dir", nil) > 0 {
				t.Fatalf("converged without the modules dir\n%s", out)
			}
			releaseDeployed(t, ns, "alpha")
		})
	}
}

// A module dir that becomes a dangling symlink while the operator runs
// cannot be seen: its actor and release are kept, the error is logged and
// shown in module list; when the target is back the module runs again.
func TestDanglingModuleSymlinkKeepsTheRelease(t *testing.T) {
	root, link, target := danglingTree(t, "beta")
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=300ms")
	op.waitReady(t)
	op.waitIdle(t)
	releaseDeployed(t, ns, "alpha")

	if err := os.Rename(target, target+"-unmounted"); err != nil {
		t.Fatal(err)
	}
	rec := op.waitRecord(t, "module dir cannot be seen; the module and its release are kept, and it is neither run nor deleted until it can",
		map[string]any{"module": "alpha"})
	if errText, _ := rec["err"].(string); !strings.Contains(errText, link) {
		t.Fatalf("the error does not name %s: %v", link, rec)
	}
	op.waitUntil(t, "module list shows alpha's dir error", func() bool {
		return strings.Contains(op.modules(t)["alpha"].DirError, link)
	})
	if text := op.cli(t, "module", "list"); !strings.Contains(text, "cannot be seen") {
		t.Fatalf("module list text does not show the dir error:\n%s", text)
	}
	releaseDeployed(t, ns, "alpha")
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil || op.count("purged release without a module dir", nil) > 0 {
		t.Fatalf("alpha deleted or purged: %s\n%s", lines(root, "deleted"), op.logText())
	}

	if err := os.Rename(target+"-unmounted", target); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "alpha's dir error cleared", func() bool { return op.modules(t)["alpha"].DirError == "" })
	releaseDeployed(t, ns, "alpha")

	// The whole modules dir gone while running (a converge for a ConfigMap
	// change reads it): every module is kept and reported.
	mods := filepath.Join(root, "modules")
	if err := os.Rename(mods, mods+"-unmounted"); err != nil {
		t.Fatal(err)
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "step: 2\n"})
	op.waitUntil(t, "beta's modules dir error", func() bool {
		return strings.Contains(op.modules(t)["beta"].DirError, "modules dir cannot be seen")
	})
	releaseDeployed(t, ns, "alpha")
	releaseDeployed(t, ns, "beta")
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil || op.count("purged release without a module dir", nil) > 0 {
		t.Fatalf("a module deleted or purged with its modules dir unmounted: %s\n%s", lines(root, "deleted"), op.logText())
	}
}

func deleteConfigMap(t *testing.T, ns string) {
	t.Helper()
	cms := kube.Client(t).CoreV1().ConfigMaps(ns)
	if err := cms.Delete(context.Background(), "addon-operator", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// ConfigMap/addon-operator deleted while the operator runs: the last good
// configuration stays in force (nothing uninstalled, not even by a converge
// meanwhile), a warning, the gauge and module list say so; recreated with
// other content, that content is applied as any change.
func TestConfigMapDeletedWhileRunningKeepsTheLastGoodConfig(t *testing.T) {
	files := moduleTree(map[string]string{"modules/values.yaml": "betaEnabled: true\n"}, "alpha", "beta", "gamma")
	root, ns := tree(t, files), kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alphaEnabled": "true", "beta": "value: from-config\n"})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=300ms")
	op.waitReady(t)
	op.waitIdle(t)
	releaseDeployed(t, ns, "alpha")
	if v := scenario.ConfigMapData(t, kube, ns, "beta")["value"]; v != "from-config" {
		t.Fatalf("beta value %q, want from-config", v)
	}
	metric := "addon_operator_config_map_missing"
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, metric+" 0\n") {
		t.Fatalf("/metrics without %s 0", metric)
	}

	deleteConfigMap(t, ns)
	op.waitRecord(t, "ConfigMap deleted; keeping the last good configuration until it exists again",
		map[string]any{"level": "WARN", "configMap": ns + "/addon-operator"})
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, metric+" 1\n") {
		t.Fatalf("/metrics without %s 1 while the ConfigMap is missing", metric)
	}
	if text := op.cli(t, "module", "list"); !strings.Contains(text, "ConfigMap "+ns+"/addon-operator is missing") {
		t.Fatalf("module list does not say the ConfigMap is missing:\n%s", text)
	}
	// A converge while it is missing (a new module dir) still uses the
	// last good configuration.
	writeFiles(t, root, map[string]string{"modules/004-delta/values.yaml": "delta: {}\n"})
	op.waitUntil(t, "delta added", func() bool { _, ok := op.modules(t)["delta"]; return ok })
	if got := op.enabledModules(t); strings.Join(got, ",") != "alpha,beta" {
		t.Fatalf("enabled modules %v while the ConfigMap is missing, want [alpha beta]", got)
	}
	releaseDeployed(t, ns, "alpha")
	if v := scenario.ConfigMapData(t, kube, ns, "beta")["value"]; v != "from-config" {
		t.Fatalf("beta value %q while the ConfigMap is missing, want from-config", v)
	}
	if _, err := os.Stat(filepath.Join(root, "record", "deleted")); err == nil {
		t.Fatalf("modules deleted while the ConfigMap was missing: %s", lines(root, "deleted"))
	}

	scenario.PutConfigMap(t, kube, ns, map[string]string{"gammaEnabled": "true", "beta": "value: recreated\n"})
	op.waitRecord(t, "ConfigMap exists again; applying its content", map[string]any{"configMap": ns + "/addon-operator"})
	op.waitUntil(t, "gamma installed, alpha uninstalled, beta reconfigured", func() bool {
		return scenario.ConfigMapData(t, kube, ns, "gamma") != nil && scenario.ConfigMapData(t, kube, ns, "alpha") == nil &&
			scenario.ConfigMapData(t, kube, ns, "beta")["value"] == "recreated"
	})
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, metric+" 0\n") {
		t.Fatalf("/metrics without %s 0 after the ConfigMap was recreated", metric)
	}
	if text := op.cli(t, "module", "list"); strings.Contains(text, "is missing") {
		t.Fatalf("module list still says the ConfigMap is missing:\n%s", text)
	}
}
