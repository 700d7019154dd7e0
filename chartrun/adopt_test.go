package chartrun_test

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/release"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// records keeps every log record of a releaser.
type records struct {
	mu   sync.Mutex
	list []slog.Record
}

func (c *records) Enabled(context.Context, slog.Level) bool { return true }
func (c *records) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *records) WithGroup(string) slog.Handler            { return c }
func (c *records) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, r.Clone())
	return nil
}

// adoptions returns the attributes of each adoption record.
func (c *records) adoptions() []map[string]string { return c.warnings(chartrun.AdoptedMessage) }

// warnings returns the attributes of each WARN record with message msg.
func (c *records) warnings(msg string) []map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]string
	for _, r := range c.list {
		if r.Message != msg || r.Level != slog.LevelWarn {
			continue
		}
		attrs := map[string]string{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		out = append(out, attrs)
	}
	return out
}

// newLoggedFixture is newFixture with a releaser that logs into records
// and ignores the release "operator".
func newLoggedFixture(t *testing.T, objects int) (fixture, *records) {
	f := newFixture(t, objects)
	logs := &records{}
	r, err := chartrun.NewReleaser(kube.Config(t), f.ns, chartrun.Options{Log: slog.New(logs), IgnoreRelease: "operator"})
	if err != nil {
		t.Fatal(err)
	}
	f.r = r
	return f, logs
}

// installChart installs the module's own chart with plain helm and the
// given labels, as the original addon-operator or a user's `helm install`
// would.
func installChart(t *testing.T, cfg *action.Configuration, ns, name, dir string, vals map[string]any, labels map[string]string) {
	t.Helper()
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace, in.Labels = name, ns, labels
	if _, err := in.Run(ch, vals); err != nil {
		t.Fatal(err)
	}
}

func demoValues(v string) map[string]any { return map[string]any{"demo": map[string]any{"value": v}} }

// checkOurs fails unless the release's latest revision carries the heritage
// label and the checksum, under the original's name too (a value of the
// original's is replaced).
func checkOurs(t *testing.T, cfg *action.Configuration, name, sum string) *release.Release {
	t.Helper()
	last := scenario.LastRelease(t, cfg, name)
	if last.Labels[chartrun.LabelHeritage] != chartrun.HeritageValue || last.Labels[chartrun.LabelChecksum] != sum ||
		last.Labels[chartrun.LabelModuleChecksum] != sum {
		t.Fatalf("revision %d of %s labels %v; want heritage and checksum %s", last.Version, name, last.Labels, sum)
	}
	return last
}

// A deployed release of the module's chart installed by plain helm, even
// one with the very checksum label this operator would write, is the
// module's release: upgraded (never skipped as unchanged), labelled, then
// ours. Its adoption is logged once. It is the releaser's first Upgrade,
// so the start's index is what first decides about it.
func TestUnlabelledReleaseIsAdopted(t *testing.T) {
	f, logs := newLoggedFixture(t, 2)
	cfg, ctx := helmConfig(t, f.ns), context.Background()
	manifests, err := f.r.Render(ctx, "demo", f.dir, demoValues("a"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := chartrun.Checksum(manifests, demoValues("a"))
	if err != nil {
		t.Fatal(err)
	}
	installChart(t, cfg, f.ns, "demo", f.dir, demoValues("a"),
		map[string]string{chartrun.LabelChecksum: sum, chartrun.LabelModuleChecksum: "the-originals", "team": "infra"})
	if names, err := f.r.List(ctx); err != nil || len(names) != 0 {
		t.Fatalf("List before adoption = %v, %v; want none", names, err)
	}
	first := f.upgrade(t, "a")
	if first.Action != chartrun.Upgraded || first.Revision != 2 || !strings.Contains(first.Reason, "adopted") {
		t.Fatalf("first run on the unlabelled release: %+v; want upgraded to revision 2 (adopted)", first)
	}
	if want := []chartrun.Destructive{{Action: chartrun.ActionAdopt, Reason: chartrun.ReasonUnlabelled}}; !reflect.DeepEqual(first.Destructive, want) {
		t.Fatalf("destructive actions of the adoption %+v; want %+v", first.Destructive, want)
	}
	checkOurs(t, cfg, "demo", sum)
	res := f.upgrade(t, "b")
	if res.Action != chartrun.Upgraded || res.Revision != 3 {
		t.Fatalf("run with new values: %+v", res)
	}
	checkOurs(t, cfg, "demo", res.Checksum)
	for _, name := range []string{"demo-0", "demo-1"} {
		if v, _ := f.value(t, name); v != "b" {
			t.Fatalf("%s = %q; want b", name, v)
		}
	}
	if res := f.upgrade(t, "b"); res.Action != chartrun.Skipped {
		t.Fatalf("the adopted release is not skipped when up to date: %+v", res)
	}
	if names, err := f.r.List(ctx); err != nil || !reflect.DeepEqual(names, []string{"demo"}) {
		t.Fatalf("List after adoption = %v, %v; want demo", names, err)
	}
	want := []map[string]string{{"release": "demo", "revision": "1", "status": "deployed",
		"installed_by": "helm without heritage label", "labels": chartrun.LabelChecksum + "=" + sum + ",moduleChecksum=the-originals,team=infra",
		"reason": "revision 1 not labelled heritage=addon-operator"}}
	if got := logs.adoptions(); !reflect.DeepEqual(got, want) {
		t.Fatalf("adoption records %v; want %v", got, want)
	}
}

// A stuck release that we did not label is cleared as ours would be: a
// single failed or pending-install revision is uninstalled, then installed;
// a pending-upgrade one is rolled back, then upgraded.
func TestStuckUnlabelledReleasesAreCleared(t *testing.T) {
	cases := []struct {
		status   release.Status
		action   chartrun.Action
		revision int
	}{
		{release.StatusFailed, chartrun.Installed, 1},
		{release.StatusPendingInstall, chartrun.Installed, 1},
		{release.StatusPendingUpgrade, chartrun.Upgraded, 4},
	}
	for _, tc := range cases {
		t.Run(string(tc.status), func(t *testing.T) {
			f, logs := newLoggedFixture(t, 1)
			cfg := helmConfig(t, f.ns)
			installPlain(t, cfg, f.ns, "demo", map[string]string{"heritage": "someone"})
			if tc.status == release.StatusPendingUpgrade {
				up := action.NewUpgrade(cfg)
				up.Namespace = f.ns
				ch, err := loader.Load(f.dir)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := up.Run("demo", ch, demoValues("theirs")); err != nil {
					t.Fatal(err)
				}
				// Killed mid-upgrade: revision 1 is still the deployed one.
				scenario.SetReleaseStatus(t, cfg, "demo", 1, release.StatusDeployed)
			}
			res := f.upgradeStuck(t, cfg, tc.status, tc.action, tc.revision)
			want := []chartrun.Destructive{{Action: chartrun.ActionAdopt, Reason: chartrun.ReasonUnlabelled},
				{Action: chartrun.ActionClear, Reason: string(tc.status)}}
			if !reflect.DeepEqual(res.Destructive, want) {
				t.Fatalf("destructive actions %+v; want %+v", res.Destructive, want)
			}
			checkNoPending(t, cfg, "demo")
			if last := checkOurs(t, cfg, "demo", res.Checksum); last.Info.Status != release.StatusDeployed {
				t.Fatalf("last revision %s", last.Info.Status)
			}
			got := logs.adoptions()
			if len(got) != 1 || got[0]["status"] != string(tc.status) || got[0]["installed_by"] != "someone" {
				t.Fatalf("adoption records %v; want one of a %s release installed by someone", got, tc.status)
			}
		})
	}
}

// List (ReleaseNames.Owned), what the purge of releases without a module
// dir works from, names only labelled releases: an unlabelled release is never purged, nor is the
// ignored one. The releaser never writes to either.
func TestListLeavesUnlabelledAndIgnoredReleasesOut(t *testing.T) {
	f, _ := newLoggedFixture(t, 1)
	cfg, ctx := helmConfig(t, f.ns), context.Background()
	installPlain(t, cfg, f.ns, "other", nil)
	plain, err := chartrun.NewReleaser(kube.Config(t), f.ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Upgrade(ctx, chartrun.Request{Release: "operator", ChartDir: f.dir, Values: demoValues("op")}); err != nil {
		t.Fatal(err)
	}
	before := kube.SecretVersions(t, f.ns, "owner=helm")
	f.upgrade(t, "a")
	if names, err := f.r.List(ctx); err != nil || !reflect.DeepEqual(names, []string{"demo"}) {
		t.Fatalf("List = %v, %v; want only demo", names, err)
	}
	// Names also gives every release (a disabled module's is deleted
	// whoever installed it), never the ignored one.
	want := chartrun.ReleaseNames{Owned: []string{"demo"}, All: []string{"demo", "other"}}
	if names, err := f.r.Names(ctx); err != nil || !reflect.DeepEqual(names, want) {
		t.Fatalf("Names = %+v, %v; want %+v", names, err, want)
	}
	if _, err := f.r.Upgrade(ctx, chartrun.Request{Release: "operator", ChartDir: f.dir}); !errors.Is(err, chartrun.ErrIgnoredRelease) {
		t.Fatalf("upgrade of the ignored release: %v", err)
	}
	if err := f.r.Delete(ctx, "operator"); !errors.Is(err, chartrun.ErrIgnoredRelease) {
		t.Fatalf("delete of the ignored release: %v", err)
	}
	after := kube.SecretVersions(t, f.ns, "owner=helm")
	for name, version := range before {
		if after[name] != version {
			t.Fatalf("release Secret %s changed", name)
		}
	}
	if v, _ := f.value(t, "other-0"); v != "theirs" {
		t.Fatalf("the unlabelled release's object changed: %q", v)
	}
}

// A disabled module's release is deleted whoever installed it, and its
// objects are checked like ours.
func TestUnlabelledModuleReleaseIsCheckedAndDeleted(t *testing.T) {
	f, logs := newLoggedFixture(t, 1)
	cfg, ctx := helmConfig(t, f.ns), context.Background()
	installPlain(t, cfg, f.ns, "demo", nil)
	if absent, err := f.r.AbsentResources(ctx, "demo"); err != nil || len(absent) != 0 {
		t.Fatalf("absent check of the unlabelled release: %v, %v", absent, err)
	}
	wantExists(t, f.r, "demo", true)
	wantExists(t, f.r, "dem", false)
	gone, err := f.r.Uninstall(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	want := chartrun.Uninstalled{Revision: 1, Status: "deployed",
		Destructive: []chartrun.Destructive{{Action: chartrun.ActionAdopt, Reason: chartrun.ReasonUnlabelled}}}
	if !reflect.DeepEqual(gone, want) {
		t.Fatalf("Uninstall = %+v; want %+v", gone, want)
	}
	if again, err := f.r.Uninstall(ctx, "demo"); err != nil || !reflect.DeepEqual(again, chartrun.Uninstalled{}) {
		t.Fatalf("Uninstall of a release that is gone = %+v, %v; want nothing", again, err)
	}
	if h, _ := cfg.Releases.History("demo"); len(h) != 0 {
		t.Fatalf("release left after delete: %d revisions", len(h))
	}
	wantExists(t, f.r, "demo", false)
	if _, ok := f.value(t, "demo-0"); ok {
		t.Fatal("demo-0 left after delete")
	}
	if got := logs.adoptions(); len(got) != 1 || got[0]["release"] != "demo" {
		t.Fatalf("adoption records %v", got)
	}
}

// wantExists checks what Exists says of the release name.
func wantExists(t *testing.T, r *chartrun.Releaser, name string, want bool) {
	t.Helper()
	if got, err := r.Exists(context.Background(), name); err != nil || got != want {
		t.Fatalf("Exists(%s) = %t, %v; want %t", name, got, err, want)
	}
}
