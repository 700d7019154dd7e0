package e2e_test

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
	helmtime "helm.sh/helm/v3/pkg/time"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

const adoptedMsg = "adopted helm release not installed by addon-operator"

// cmChart is a module dir's chart: one ConfigMap named after the release
// with the value of the module's values section.
func cmChart(module string) map[string]string {
	prefix := "modules/" + module + "/"
	return map[string]string{
		prefix + "Chart.yaml":  "apiVersion: v2\nname: " + module + "\nversion: 0.1.0\n",
		prefix + "values.yaml": module + ":\n  value: ours\n",
		prefix + "templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n" +
			"data:\n  value: {{ (index .Values .Chart.Name).value | quote }}\n",
	}
}

// chartModules is a tree of enabled modules, each a cmChart, and one
// cmChart outside the modules dir (under charts/: a release without one).
func chartModules(enabled []string, outside string) map[string]string {
	files := map[string]string{"modules/values.yaml": ""}
	for _, m := range enabled {
		files["modules/values.yaml"] += m + "Enabled: true\n"
		maps.Copy(files, cmChart(m))
	}
	for k, v := range cmChart(outside) {
		files["charts/"+strings.TrimPrefix(k, "modules/")] = v
	}
	return files
}

// plainHelm is helm's own configuration for ns, as the helm CLI would use.
func plainHelm(t *testing.T, ns string) *action.Configuration {
	t.Helper()
	cfg := &action.Configuration{}
	if err := cfg.Init(chartrun.NewRESTGetter(kube.Config(t), ns), ns, "secret", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// helmInstall installs the chart as release name with the value "theirs",
// the way `helm install` does; wantErr expects helm to fail (and record a
// failed revision).
func helmInstall(t *testing.T, cfg *action.Configuration, ns, name string, ch *chart.Chart, labels map[string]string, wantErr bool) {
	t.Helper()
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace, in.Labels = name, ns, labels
	_, err := in.Run(ch, map[string]any{ch.Metadata.Name: map[string]any{"value": "theirs"}})
	if (err != nil) != wantErr {
		t.Fatalf("helm install %s: %v (want error: %v)", name, err, wantErr)
	}
}

func loadChart(t *testing.T, dir string) *chart.Chart {
	t.Helper()
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// writeFailedRevision stores a single failed revision through helm's
// Secret storage driver, without our labels.
func writeFailedRevision(t *testing.T, ns, name string, ch *chart.Chart) {
	t.Helper()
	secrets := kube.Client(t).CoreV1().Secrets(ns)
	now := helmtime.Now()
	rel := &release.Release{Name: name, Namespace: ns, Version: 1, Chart: ch,
		Info:     &release.Info{Status: release.StatusFailed, FirstDeployed: now, LastDeployed: now, Description: "forged"},
		Manifest: "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"}
	if err := storage.Init(driver.NewSecrets(secrets)).Create(rel); err != nil {
		t.Fatal(err)
	}
}

// secretVersions is the resourceVersion of each release Secret of name.
func secretVersions(t *testing.T, ns, name string) map[string]string {
	t.Helper()
	return kube.SecretVersions(t, ns, "owner=helm,name="+name)
}

// Releases named after modules that the original addon-operator or plain
// helm installed are adopted at start-up: a deployed one is upgraded, a
// single failed revision (written by a failed `helm install`, or straight
// into helm's storage) is deleted and installed; each then carries
// heritage=addon-operator and its adoption is logged once. An unlabelled
// release without a module dir, and the HELM_IGNORE_RELEASE one, are left
// alone.
func TestReleasesInstalledByOthersAreAdopted(t *testing.T) {
	root := tree(t, chartModules([]string{"plain", "broken", "forged"}, "stray"))
	ns := kube.Namespace(t)
	cfg := plainHelm(t, ns)
	helmInstall(t, cfg, ns, "plain", loadChart(t, filepath.Join(root, "modules/plain")), nil, false)
	bad := loadChart(t, filepath.Join(root, "modules/broken"))
	bad.Templates = append(bad.Templates, &chart.File{Name: "templates/bad.yaml",
		Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_A_Name\n")})
	helmInstall(t, cfg, ns, "broken", bad, nil, true)
	writeFailedRevision(t, ns, "forged", loadChart(t, filepath.Join(root, "modules/forged")))
	stray := loadChart(t, filepath.Join(root, "charts/stray"))
	helmInstall(t, cfg, ns, "stray", stray, nil, false)
	helmInstall(t, cfg, ns, "keep", stray, map[string]string{chartrun.LabelHeritage: chartrun.HeritageValue}, false)
	strayBefore, keepBefore := secretVersions(t, ns, "stray"), secretVersions(t, ns, "keep")

	op := startSpec(t, root, ns, "HELM_IGNORE_RELEASE=keep")
	op.waitReady(t)
	op.waitIdle(t)

	for module, revision := range map[string]int{"plain": 2, "broken": 1, "forged": 1} {
		last := scenario.LastRelease(t, cfg, module)
		if last.Version != revision || last.Info.Status != release.StatusDeployed ||
			last.Labels[chartrun.LabelHeritage] != chartrun.HeritageValue || last.Labels[chartrun.LabelChecksum] == "" {
			t.Fatalf("release %s: revision %d %s labels %v; want revision %d deployed with our labels",
				module, last.Version, last.Info.Status, last.Labels, revision)
		}
		if v := scenario.ConfigMapData(t, kube, ns, module)["value"]; v != "ours" {
			t.Fatalf("ConfigMap %s value %q; want ours", module, v)
		}
		if n := op.count(adoptedMsg, map[string]any{"release": module}); n != 1 {
			t.Fatalf("%d adoption records for %s; want 1\n%s", n, module, op.logText())
		}
	}
	if n := op.count(adoptedMsg, nil); n != 3 {
		t.Fatalf("%d adoption records; want 3 (plain, broken, forged)\n%s", n, op.logText())
	}
	if op.count(adoptedMsg, map[string]any{"release": "forged", "status": "failed"}) != 1 {
		t.Fatalf("adoption of forged does not name its status\n%s", op.logText())
	}
	for name, before := range map[string]map[string]string{"stray": strayBefore, "keep": keepBefore} {
		if after := secretVersions(t, ns, name); len(after) != 1 || !maps.Equal(before, after) {
			t.Fatalf("release %s changed: %v -> %v", name, before, after)
		}
	}
	if v := scenario.ConfigMapData(t, kube, ns, "stray")["value"]; v != "theirs" {
		t.Fatalf("the stray release's object: %q", v)
	}
}
