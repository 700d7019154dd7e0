package chartrun_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
	cfg := kube.Config(t)
	cfg.Wrap(queries.wrap)
	restarted, err := chartrun.NewReleaser(cfg, f.ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
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
