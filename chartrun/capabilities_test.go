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

// TestCapabilitiesAreKeptUntilAWriteOrTheTTL counts the requests for the
// server version, which discovery of the capabilities makes.
func TestCapabilitiesAreKeptUntilAWriteOrTheTTL(t *testing.T) {
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
	discovers("render after an install", 1, render)
	discovers("skip path", 0, upgrade)
	discovers("render after the skip path", 0, render)
}
