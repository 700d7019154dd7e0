package chartrun_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

const cmTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-%d
data:
  value: {{ .Values.demo.value | quote }}
`

// writeChart writes a module dir with a chart of n ConfigMaps, and a hook
// file that must not count in the checksum.
func writeChart(t testing.TB, n int) string {
	t.Helper()
	files := map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"values.yaml": "demo:\n  value: default\n",
		"hooks/hook":  "#!/bin/sh\n",
	}
	for i := range n {
		files[fmt.Sprintf("templates/cm%d.yaml", i)] = fmt.Sprintf(cmTemplate, i)
	}
	return writeModule(t, files)
}

// writeModule writes files into a new module dir.
func writeModule(t testing.TB, files map[string]string) string {
	return scenario.TempTree(t, files, 0o644)
}

type fixture struct {
	r      *chartrun.Releaser
	client kubernetes.Interface
	ns     string
	dir    string
}

func newFixture(t *testing.T, objects int) fixture {
	ns := kube.Namespace(t)
	r, err := chartrun.NewReleaser(kube.Config(t), ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{r: r, client: kubernetes.NewForConfigOrDie(kube.Config(t)), ns: ns, dir: writeChart(t, objects)}
}

func (f fixture) upgrade(t *testing.T, value string) chartrun.Result {
	t.Helper()
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir,
		Values: map[string]any{"demo": map[string]any{"value": value}}})
	if err != nil {
		t.Fatalf("upgrade with %q: %v", value, err)
	}
	return res
}

func (f fixture) value(t *testing.T, name string) (string, bool) {
	t.Helper()
	cm, err := f.client.CoreV1().ConfigMaps(f.ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return cm.Data["value"], true
}

func TestInstallSkipUpgradeDelete(t *testing.T) {
	f := newFixture(t, 2)
	if res := f.upgrade(t, "a"); res.Action != chartrun.Installed || !res.Upgraded || res.Revision != 1 {
		t.Fatalf("install: %+v", res)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped || res.Upgraded || res.Revision != 1 {
		t.Fatalf("same values again: %+v, want skipped at revision 1", res)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "hooks/hook"), []byte("#!/bin/sh\necho changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped {
		t.Fatalf("a hook change upgraded the release: %+v", res)
	}
	if res := f.upgrade(t, "b"); res.Action != chartrun.Upgraded || res.Revision != 2 {
		t.Fatalf("changed values: %+v, want upgraded to revision 2", res)
	}
	if v, _ := f.value(t, "demo-1"); v != "b" {
		t.Fatalf("demo-1 has %q after upgrade", v)
	}
	names, err := f.r.List(context.Background())
	if err != nil || !reflect.DeepEqual(names, []string{"demo"}) {
		t.Fatalf("List = %v, %v", names, err)
	}
	for range 2 { // idempotent
		if err := f.r.Delete(context.Background(), "demo"); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"demo-0", "demo-1"} {
		if _, ok := f.value(t, name); ok {
			t.Fatalf("%s still exists after delete", name)
		}
	}
	if names, _ := f.r.List(context.Background()); len(names) != 0 {
		t.Fatalf("List after delete = %v", names)
	}
	if h, err := helmConfig(t, f.ns).Releases.History("demo"); len(h) != 0 {
		t.Fatalf("history after delete: %d revisions, %v", len(h), err)
	}
}

func TestAbsentResourceIsReportedAndRestored(t *testing.T) {
	// One object of its kind is checked with a GET, several with a LIST.
	for _, objects := range []int{1, 3} {
		t.Run(fmt.Sprintf("objects=%d", objects), func(t *testing.T) {
			f := newFixture(t, objects)
			f.upgrade(t, "a")
			if absent, err := f.r.AbsentResources(context.Background(), "demo"); err != nil || len(absent) != 0 {
				t.Fatalf("absent right after install: %v %v", absent, err)
			}
			if err := f.client.CoreV1().ConfigMaps(f.ns).Delete(context.Background(), "demo-0", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			absent, err := f.r.AbsentResources(context.Background(), "demo")
			if err != nil {
				t.Fatal(err)
			}
			if want := []chartrun.Object{{APIVersion: "v1", Kind: "ConfigMap", Namespace: f.ns, Name: "demo-0"}}; !reflect.DeepEqual(absent, want) {
				t.Fatalf("absent %v, want %v", absent, want)
			}
			res := f.upgrade(t, "a")
			if res.Action != chartrun.Upgraded || !strings.Contains(res.Reason, "demo-0") {
				t.Fatalf("absent resource did not upgrade: %+v", res)
			}
			if v, ok := f.value(t, "demo-0"); !ok || v != "a" {
				t.Fatalf("demo-0 not restored: %q %v", v, ok)
			}
			if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped {
				t.Fatalf("run after the restore: %+v, want skipped", res)
			}
		})
	}
}

// helmConfig is a plain helm configuration to forge releases with.
func helmConfig(t *testing.T, ns string) *action.Configuration {
	cfg := &action.Configuration{}
	if err := cfg.Init(chartrun.NewRESTGetter(kube.Config(t), ns), ns, "secret", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// upgradeStuck leaves the last revision of release demo in status and
// runs an upgrade with value "c": it must recover the release by action,
// ending at revision, with "c" in the cluster.
func (f fixture) upgradeStuck(t *testing.T, cfg *action.Configuration, status release.Status, action chartrun.Action, revision int) chartrun.Result {
	t.Helper()
	scenario.SetReleaseStatus(t, cfg, "demo", scenario.LastRelease(t, cfg, "demo").Version, status) // as a killed operator leaves it
	res := f.upgrade(t, "c")
	if res.Action != action || res.Revision != revision {
		t.Fatalf("stuck %s release: %+v; want %s revision %d", status, res, action, revision)
	}
	if v, _ := f.value(t, "demo-0"); v != "c" {
		t.Fatalf("after recovery demo-0 = %q; want c", v)
	}
	return res
}

// checkNoPending fails if a revision of the release is left pending-*, and
// returns the history's statuses by revision.
func checkNoPending(t *testing.T, cfg *action.Configuration, name string) map[int]release.Status {
	t.Helper()
	history, err := cfg.Releases.History(name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]release.Status{}
	for _, h := range history {
		out[h.Version] = h.Info.Status
	}
	for _, h := range history {
		if h.Info.Status.IsPending() {
			t.Fatalf("revision %d of %s left %s; history %v", h.Version, name, h.Info.Status, out)
		}
	}
	return out
}

// A stuck release is cleared (logged at WARN, returned to be counted):
// a single failed or pending-install revision is uninstalled, then
// installed; a pending-upgrade or pending-rollback one over a deployed
// revision (revision 1 set back to deployed, as a killed upgrade leaves it)
// is rolled back to it, then upgraded, and marked failed in the history.
func TestStuckReleasesAreRecovered(t *testing.T) {
	cases := []struct {
		status   release.Status
		action   chartrun.Action
		revision int
		history  map[int]release.Status
	}{
		{release.StatusPendingInstall, chartrun.Installed, 1, map[int]release.Status{1: release.StatusDeployed}},
		{release.StatusFailed, chartrun.Installed, 1, map[int]release.Status{1: release.StatusDeployed}},
		{release.StatusPendingUpgrade, chartrun.Upgraded, 4, map[int]release.Status{1: release.StatusSuperseded,
			2: release.StatusFailed, 3: release.StatusSuperseded, 4: release.StatusDeployed}},
		{release.StatusPendingRollback, chartrun.Upgraded, 4, map[int]release.Status{1: release.StatusSuperseded,
			2: release.StatusFailed, 3: release.StatusSuperseded, 4: release.StatusDeployed}},
	}
	for _, tc := range cases {
		t.Run(string(tc.status), func(t *testing.T) {
			f, logs := newLoggedFixture(t, 1)
			f.upgrade(t, "a")
			cfg := helmConfig(t, f.ns)
			if tc.revision > 1 {
				f.upgrade(t, "b")
				scenario.SetReleaseStatus(t, cfg, "demo", 1, release.StatusDeployed)
			}
			res := f.upgradeStuck(t, cfg, tc.status, tc.action, tc.revision)
			if got := checkNoPending(t, cfg, "demo"); !reflect.DeepEqual(got, tc.history) {
				t.Fatalf("history after recovery %v; want %v", got, tc.history)
			}
			want := []chartrun.Destructive{{Action: chartrun.ActionClear, Reason: string(tc.status)}}
			if !reflect.DeepEqual(res.Destructive, want) {
				t.Fatalf("destructive actions %+v; want %+v", res.Destructive, want)
			}
			if got := logs.warnings("cleared stuck helm release"); len(got) != 1 || got[0]["status"] != string(tc.status) ||
				!strings.Contains(got[0]["reason"], "release "+string(tc.status)+" since ") {
				t.Fatalf("clear records %v; want one naming %s and since when", got, tc.status)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	f := newFixture(t, 1)
	if _, err := f.r.Upgrade(context.Background(), chartrun.Request{ChartDir: f.dir}); err == nil {
		t.Fatal("empty release name accepted")
	}
	if err := os.WriteFile(filepath.Join(f.dir, "templates/bad.yaml"), []byte("{{ .Values.nope.deeper }}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir, Values: map[string]any{}})
	if err == nil || !contains(err.Error(), "templates/bad.yaml:1:") {
		t.Fatalf("template error does not name the file and line: %v", err)
	}
	if _, err := chartrun.NewReleaser(kube.Config(t), "", chartrun.Options{}); err == nil {
		t.Fatal("empty namespace accepted")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestRenderInstallsNothing(t *testing.T) {
	f := newFixture(t, 2)
	out, err := f.r.Render(context.Background(), "demo", f.dir, map[string]any{"demo": map[string]any{"value": "r"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "name: demo-1") || !strings.Contains(out, `value: "r"`) {
		t.Fatalf("rendered:\n%s", out)
	}
	if _, ok := f.value(t, "demo-0"); ok {
		t.Fatal("Render created objects")
	}
	if names, _ := f.r.List(context.Background()); len(names) != 0 {
		t.Fatalf("Render created a release: %v", names)
	}
}

func TestInvalidChartAndRejectedManifest(t *testing.T) {
	f := newFixture(t, 1)
	if err := os.WriteFile(filepath.Join(f.dir, "Chart.yaml"), []byte("apiVersion: v2\nname: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir})
	if err == nil || !strings.Contains(err.Error(), "Chart.yaml") {
		t.Fatalf("invalid Chart.yaml: %v", err)
	}
	g := newFixture(t, 0)
	bad := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_A_Valid_Name\n"
	if err := os.MkdirAll(filepath.Join(g.dir, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.dir, "templates/bad.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = g.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: g.dir})
	if err == nil || !strings.Contains(err.Error(), "Not_A_Valid_Name") || !strings.Contains(err.Error(), "Invalid") {
		t.Fatalf("rejected manifest: %v", err)
	}
}

// A forced request (a reconcile asked on the Module object) upgrades an
// up-to-date release: a new revision with the same manifests; the request
// after it, not forced, skips again.
func TestForceUpgradesAnUpToDateRelease(t *testing.T) {
	f := newFixture(t, 1)
	if res := f.upgrade(t, "a"); res.Revision != 1 {
		t.Fatalf("install: %+v", res)
	}
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir, Force: true,
		Values: map[string]any{"demo": map[string]any{"value": "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != chartrun.Upgraded || res.Revision != 2 || res.Reason != "reconcile requested" {
		t.Fatalf("forced upgrade of an up-to-date release: %+v, want upgraded to revision 2", res)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped || res.Revision != 2 {
		t.Fatalf("the request after it: %+v, want skipped at revision 2", res)
	}
}
