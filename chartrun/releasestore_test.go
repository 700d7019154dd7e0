package chartrun_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/chartrun"
)

// The releaser writes a release's Secret exactly as helm's own driver
// does (so helm, the original operator and this one read each other's
// releases): the same data bytes, type and labels, but for the time of the
// write, which comes from the releaser's clock. helm reads it back equal.
// Writing many releases through one store reuses its gzip writers without
// mixing their output.
func TestReleaseSecretsAreHelms(t *testing.T) {
	f := newFixture(t, 2)
	secrets := f.client.CoreV1().Secrets(f.ns)
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	ours := chartrun.ReleaseStore(f.r, secrets, func() time.Time { return at })
	helms := driver.NewSecrets(secrets)
	rel := func(name, note string) *release.Release {
		return &release.Release{Name: name, Namespace: f.ns, Version: 3, Manifest: "kind: ConfigMap\nnote: " + note + "\n",
			Info:   &release.Info{Status: release.StatusDeployed, Description: "Install complete"},
			Chart:  &chart.Chart{Metadata: &chart.Metadata{Name: "demo", Version: "0.1.0", APIVersion: "v2"}},
			Config: map[string]any{"demo": map[string]any{"value": note}},
			Labels: map[string]string{chartrun.LabelHeritage: chartrun.HeritageValue, chartrun.LabelChecksum: "abc"}}
	}
	for _, note := range []string{"first", "second", "third"} {
		if err := ours.Create("sh.helm.release.v1.ours-"+note+".v3", rel("ours-"+note, note)); err != nil {
			t.Fatal(err)
		}
		if err := helms.Create("sh.helm.release.v1.helms-"+note+".v3", rel("helms-"+note, note)); err != nil {
			t.Fatal(err)
		}
	}
	for _, note := range []string{"first", "second", "third"} {
		o, err := secrets.Get(context.Background(), "sh.helm.release.v1.ours-"+note+".v3", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		h, err := secrets.Get(context.Background(), "sh.helm.release.v1.helms-"+note+".v3", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if o.Type != h.Type {
			t.Errorf("%s: type %q, helm's %q", note, o.Type, h.Type)
		}
		if o.Labels["createdAt"] != "1795521600" {
			t.Errorf("%s: createdAt %q, want the clock's 1795521600", note, o.Labels["createdAt"])
		}
		ol, hl := maps.Clone(o.Labels), maps.Clone(h.Labels)
		delete(ol, "createdAt")
		delete(hl, "createdAt")
		hl["name"] = "ours-" + note
		if !maps.Equal(ol, hl) {
			t.Errorf("%s: labels %v, helm's %v", note, ol, hl)
		}
		got, err := helms.Get(o.Name)
		if err != nil {
			t.Fatalf("helm reads ours: %v", err)
		}
		if want := rel("ours-"+note, note); got.Manifest != want.Manifest || got.Config["demo"].(map[string]any)["value"] != note ||
			got.Info.Status != release.StatusDeployed || got.Labels[chartrun.LabelChecksum] != "abc" {
			t.Errorf("%s: helm read %+v", note, got)
		}
		// Same content but the name: the encodings differ only there.
		again := rel("helms-"+note, note)
		if err := ours.Update("sh.helm.release.v1.helms-"+note+".v3", again); err != nil {
			t.Fatal(err)
		}
		u, err := secrets.Get(context.Background(), h.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if string(u.Data["release"]) != string(h.Data["release"]) {
			t.Errorf("%s: our encoding of helm's release differs from helm's", note)
		}
		if u.Labels["modifiedAt"] != "1795521600" {
			t.Errorf("%s: modifiedAt %q, want the clock's", note, u.Labels["modifiedAt"])
		}
	}
	if err := ours.Create("sh.helm.release.v1.ours-first.v3", rel("ours-first", "first")); err != driver.ErrReleaseExists {
		t.Fatalf("create over an existing revision: %v, want ErrReleaseExists", err)
	}
	// A release said to be absent is not found by the next query for it
	// (and that query only): the one helm's install makes first.
	history := map[string]string{"name": "ours-first", "owner": "helm"}
	chartrun.ExpectAbsent(ours, "ours-first")
	if got, err := ours.Query(map[string]string{"name": "ours-second", "owner": "helm"}); err != nil || len(got) != 1 {
		t.Fatalf("query of another release: %d revisions, %v; want its one", len(got), err)
	}
	chartrun.ExpectAbsent(ours, "ours-first")
	if got, err := ours.Query(history); err != driver.ErrReleaseNotFound {
		t.Fatalf("query of the release expected absent: %d revisions, %v; want ErrReleaseNotFound", len(got), err)
	}
	if got, err := ours.Query(history); err != nil || len(got) != 1 {
		t.Fatalf("second query: %d revisions, %v; want the one in the cluster", len(got), err)
	}
}
