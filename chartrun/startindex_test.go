package chartrun_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/addon-actors/addon-operator/chartrun"
)

// historyQueries counts helm's reads of one release's history (a LIST of
// Secrets selected by name).
type historyQueries struct{ n atomic.Int32 }

func (q *historyQueries) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, "/secrets") && strings.Contains(req.URL.Query().Get("labelSelector"), "name=") {
			q.n.Add(1)
		}
		return next.RoundTrip(req)
	})
}

// After a restart, the first run of each release decides its skip from the
// index listed once (no history read), still only when none of its objects
// is absent; a second run reads the history; a release changed by someone
// else after the list is not decided from the index (the watch drops it):
// reverting it to the values the index knew is an upgrade, not a skip.
func TestRestartDecidesSkipsFromOneList(t *testing.T) {
	f := newFixture(t, 2)
	other := func(r *chartrun.Releaser, value string) chartrun.Result {
		t.Helper()
		res, err := r.Upgrade(context.Background(), chartrun.Request{Release: "other", ChartDir: f.dir,
			Values: map[string]any{"demo": map[string]any{"value": value}}})
		if err != nil {
			t.Fatalf("upgrade other to %q: %v", value, err)
		}
		return res
	}
	f.upgrade(t, "a")
	other(f.r, "a")
	healed := chartrun.Request{Release: "healed", ChartDir: f.dir, Values: map[string]any{"demo": map[string]any{"value": "a"}}}
	if _, err := f.r.Upgrade(context.Background(), healed); err != nil {
		t.Fatal(err)
	}
	if err := f.client.CoreV1().ConfigMaps(f.ns).Delete(context.Background(), "healed-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	var queries historyQueries
	restarted := f.through(t, queries.wrap)
	changed := make(chan string, 16)
	chartrun.OnIndexChange(restarted, func(name string) { changed <- name })
	run := func(value string) chartrun.Result {
		t.Helper()
		res, err := restarted.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir,
			Values: map[string]any{"demo": map[string]any{"value": value}}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run("a"); res.Action != chartrun.Skipped || queries.n.Load() != 0 {
		t.Fatalf("first run after the restart: %+v with %d history reads, want skipped with none", res, queries.n.Load())
	}
	if res := run("a"); res.Action != chartrun.Skipped || queries.n.Load() != 1 {
		t.Fatalf("second run: %+v with %d history reads in all, want skipped with one", res, queries.n.Load())
	}
	if res, err := restarted.Upgrade(context.Background(), healed); err != nil || res.Action != chartrun.Upgraded ||
		!strings.Contains(res.Reason, "healed-1") {
		t.Fatalf("release with an absent object after the restart: %+v, %v; want upgraded", res, err)
	}
	other(f.r, "b") // someone else's change after the list
	for name := ""; name != "other"; {
		select {
		case name = <-changed:
		case <-time.After(30 * time.Second):
			t.Fatal("the index's watch did not see the change of other")
		}
	}
	if res := other(restarted, "a"); res.Action != chartrun.Upgraded {
		t.Fatalf("other back to the values the index knew: %+v, want upgraded", res)
	}
}

// objectLists counts the LISTs of helm's ConfigMaps (the absent check).
type objectLists struct{ n atomic.Int32 }

func (q *objectLists) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, "/configmaps") && req.URL.Query().Get("watch") == "" &&
			strings.Contains(req.URL.Query().Get("labelSelector"), "managed-by") {
			q.n.Add(1)
		}
		return next.RoundTrip(req)
	})
}

// After a restart, the first runs check their objects in one list per kind,
// kept current by a watch: an object deleted, or stripped of helm's label,
// after that list is absent, and its release is upgraded.
func TestRestartChecksAbsenceFromOneListPerKind(t *testing.T) {
	f := newFixture(t, 2)
	ctx := context.Background()
	req := func(name string) chartrun.Request {
		return chartrun.Request{Release: name, ChartDir: f.dir, Values: map[string]any{"demo": map[string]any{"value": "a"}}}
	}
	for _, name := range []string{"a", "b", "c", "d"} {
		if _, err := f.r.Upgrade(ctx, req(name)); err != nil {
			t.Fatal(err)
		}
	}
	var lists objectLists
	restarted := f.through(t, lists.wrap)
	changed := make(chan string, 64)
	chartrun.OnObjectChange(restarted, func(object string) { changed <- object })
	for i, name := range []string{"a", "d"} {
		if res, err := restarted.Upgrade(ctx, req(name)); err != nil || res.Action != chartrun.Skipped || lists.n.Load() != 1 {
			t.Fatalf("run %d (%s): %+v, %v, %d lists; want skipped, one list in all", i, name, res, err, lists.n.Load())
		}
	}
	cms := f.client.CoreV1().ConfigMaps(f.ns)
	if err := cms.Delete(ctx, "b-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	patch := []byte(`{"metadata":{"labels":{"app.kubernetes.io/managed-by":null}}}`)
	if _, err := cms.Patch(ctx, "c-0", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	for seen := map[string]bool{}; !seen[f.ns+"/configmaps/b-1"] || !seen[f.ns+"/configmaps/c-0"]; {
		select {
		case o := <-changed:
			seen[o] = true
		case <-time.After(30 * time.Second):
			t.Fatalf("the index's watch saw only %v", seen)
		}
	}
	for name, object := range map[string]string{"b": "b-1", "c": "c-0"} {
		if res, err := restarted.Upgrade(ctx, req(name)); err != nil || res.Action != chartrun.Upgraded || !strings.Contains(res.Reason, object) {
			t.Fatalf("%s after %s went: %+v, %v; want upgraded for it", name, object, res, err)
		}
	}
}

// On a cold start the index's list says which releases do not exist yet:
// their first runs install without reading their history, neither the
// releaser nor helm (whose check that the name is free the releaser
// answers from the index). A release
// someone else installs after the list, and one whose Secret the list
// could not read, are not decided from the index: their history is read.
func TestColdStartInstallsWithoutHistoryReads(t *testing.T) {
	f := newFixture(t, 2)
	var queries historyQueries
	r := f.through(t, queries.wrap)
	changed := make(chan string, 16)
	chartrun.OnIndexChange(r, func(name string) { changed <- name })
	broken := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1.broken.v1",
		Labels: map[string]string{"owner": "helm", "name": "broken", "status": "deployed"}}, // no version
		Data: map[string][]byte{"release": []byte("not a release")}}
	if _, err := f.client.CoreV1().Secrets(f.ns).Create(context.Background(), broken, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	upgrade := func(r *chartrun.Releaser, name string) (chartrun.Result, error) {
		return r.Upgrade(context.Background(), chartrun.Request{Release: name, ChartDir: f.dir,
			Values: map[string]any{"demo": map[string]any{"value": "a"}}})
	}
	for _, name := range []string{"one", "two"} {
		if res, err := upgrade(r, name); err != nil || res.Action != chartrun.Installed || queries.n.Load() != 0 {
			t.Fatalf("first run of %s: %+v, %v with %d history reads; want installed with none", name, res, err, queries.n.Load())
		}
	}
	if _, err := upgrade(f.r, "late"); err != nil { // someone else, after the list
		t.Fatal(err)
	}
	for name := ""; name != "late"; {
		select {
		case name = <-changed:
		case <-time.After(30 * time.Second):
			t.Fatal("the index's watch did not see the install of late")
		}
	}
	if res, err := upgrade(r, "late"); err != nil || res.Action != chartrun.Skipped || queries.n.Load() != 1 {
		t.Fatalf("release installed after the list: %+v, %v with %d history reads in all; want skipped after a read", res, err, queries.n.Load())
	}
	// broken: its history read (helm skips the undecodable revision), then
	// helm's own name check, and helm refuses to write over its Secret.
	if res, err := upgrade(r, "broken"); err == nil || queries.n.Load() != 3 {
		t.Fatalf("release with an unreadable Secret: %+v, %v with %d history reads in all; want its history read and helm's check (3), and an error", res, err, queries.n.Load())
	}
	if res, err := upgrade(r, "one"); err != nil || res.Action != chartrun.Skipped || queries.n.Load() != 4 {
		t.Fatalf("second run of one: %+v, %v with %d history reads in all; want skipped after a read", res, err, queries.n.Load())
	}
}

// through is another releaser of f's namespace (the operator restarted)
// whose requests go through wrap.
func (f fixture) through(t *testing.T, wrap func(http.RoundTripper) http.RoundTripper) *chartrun.Releaser {
	t.Helper()
	cfg := kube.Config(t)
	cfg.Wrap(wrap)
	r, err := chartrun.NewReleaser(cfg, f.ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
