package chartrun_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/chartrun"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestCapabilitiesAreKeptUntilAnAPIChangingWriteOrTheTTL counts the requests for the
// server version, which discovery of the capabilities makes.
func TestCapabilitiesAreKeptUntilAnAPIChangingWriteOrTheTTL(t *testing.T) {
	var versions atomic.Int32
	cfg := kube.Config(t)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.URL.Path == "/version" {
				versions.Add(1)
			}
			return next.RoundTrip(req)
		})
	})
	clock := &fakeClock{now: time.Unix(1_000_000, 0)}
	r, err := chartrun.NewReleaser(cfg, kube.Namespace(t), chartrun.Options{Clock: clock, CapabilitiesTTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	dir := writeChart(t, 1)
	discovers := func(step string, want int32, run func() error) {
		t.Helper()
		before := versions.Load()
		if err := run(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if got := versions.Load() - before; got != want {
			t.Fatalf("%s asked the server version %d times, want %d", step, got, want)
		}
	}
	render := func() error { _, err := r.Render(context.Background(), "demo", dir, benchValues("a")); return err }
	upgrade := func() error {
		_, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues("a")})
		return err
	}
	discovers("first render", 1, render)
	discovers("second render", 0, render)
	clock.Advance(59 * time.Second)
	discovers("render within the TTL", 0, render)
	clock.Advance(2 * time.Second)
	discovers("render after the TTL", 1, render)
	if err := upgrade(); err != nil { // installs
		t.Fatal(err)
	}
	discovers("render after an install of ConfigMaps only", 0, render)
	discovers("skip path", 0, upgrade)
	discovers("render after the skip path", 0, render)

	// A release that names a CRD may change what the cluster serves.
	apiDir := writeModule(t, map[string]string{"Chart.yaml": "apiVersion: v2\nname: api\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n" +
			"data:\n  note: the controller registers a CustomResourceDefinition\n"})
	// (helm's install asks the server version itself, IsReachable: writes
	// are not counted.)
	must := func(step string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	_, err = r.Upgrade(context.Background(), chartrun.Request{Release: "api", ChartDir: apiDir, Values: benchValues("a")})
	must("install of a release naming a CRD", err)
	discovers("render after a release naming a CRD", 1, render)
	must("delete of a release without one", r.Delete(context.Background(), "demo"))
	discovers("render after that delete", 0, render)
	must("delete of the release naming a CRD", r.Delete(context.Background(), "api"))
	discovers("render after that delete", 1, render)
}
