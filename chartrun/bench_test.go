package chartrun_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/chartrun"
)

// The benchmarks run against the real apiserver of test/cluster and print
// their figures; none fails on a time.

// BenchmarkSkipPath is the cost of a module run whose release is up to
// date: read the chart, ask the cluster's capabilities, render, checksum,
// read the history and GET every object of the manifest (target: at most
// 30 ms for 20 templates).
func BenchmarkSkipPath(b *testing.B) {
	for _, n := range []int{2, 20} {
		b.Run(fmt.Sprintf("templates=%d", n), func(b *testing.B) {
			r, dir := benchReleaser(b, n)
			req := chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues("a")}
			if _, err := r.Upgrade(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				res, err := r.Upgrade(context.Background(), req)
				if err != nil || res.Action != chartrun.Skipped {
					b.Fatalf("skip path did not skip: %+v %v", res, err)
				}
			}
			reportMillis(b)
		})
	}
}

// BenchmarkRender is the render part of the skip path (with the
// capabilities read), without the history and the GETs.
func BenchmarkRender(b *testing.B) {
	r, dir := benchReleaser(b, 20)
	for range b.N {
		if _, err := r.Render(context.Background(), "demo", dir, benchValues("a")); err != nil {
			b.Fatal(err)
		}
	}
	reportMillis(b)
}

// BenchmarkInstall is one install of a 2-object chart (a new release each
// time).
func BenchmarkInstall(b *testing.B) {
	r, dir := benchReleaser(b, 2)
	for i := range b.N {
		req := chartrun.Request{Release: fmt.Sprintf("demo-%d", i), ChartDir: dir, Values: benchValues("a")}
		if res, err := r.Upgrade(context.Background(), req); err != nil || res.Action != chartrun.Installed {
			b.Fatalf("install %d: %+v %v", i, res, err)
		}
	}
	reportMillis(b)
}

// BenchmarkUpgrade is one upgrade of a 2-object chart (the values change
// every time).
func BenchmarkUpgrade(b *testing.B) {
	r, dir := benchReleaser(b, 2)
	if _, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues("first")}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		req := chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues(fmt.Sprint(i))}
		if res, err := r.Upgrade(context.Background(), req); err != nil || res.Action != chartrun.Upgraded {
			b.Fatalf("upgrade %d: %+v %v", i, res, err)
		}
	}
	reportMillis(b)
}

// BenchmarkAbsentCheck is AbsentResources of a release of n objects (the
// periodic drift check); it reports the time per object too.
func BenchmarkAbsentCheck(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			r, dir := benchReleaser(b, n)
			if _, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues("a")}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if absent, err := r.AbsentResources(context.Background(), "demo"); err != nil || len(absent) != 0 {
					b.Fatalf("absent %v %v", absent, err)
				}
			}
			reportMillis(b)
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/object")
		})
	}
}

// BenchmarkReleaseCheck is the periodic check of a release of n objects,
// absent objects only (drift=off, AbsentResources) or with the drift
// comparison (drift=on: whole objects from the live index's watches, one
// list per kind at the first check). It reports the time and the
// apiserver requests per check and the time per object.
func BenchmarkReleaseCheck(b *testing.B) {
	for _, n := range []int{1, 20} {
		for _, withDrift := range []bool{false, true} {
			b.Run(fmt.Sprintf("objects=%d/drift=%v", n, withDrift), func(b *testing.B) {
				var requests atomic.Int64
				cfg := rest.CopyConfig(kube.Config(b))
				cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
					return roundTripFunc(func(req *http.Request) (*http.Response, error) {
						requests.Add(1)
						return rt.RoundTrip(req)
					})
				}
				r, err := chartrun.NewReleaser(cfg, kube.Namespace(b), chartrun.Options{})
				if err != nil {
					b.Fatal(err)
				}
				dir := writeChart(b, n)
				if _, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: benchValues("a")}); err != nil {
					b.Fatal(err)
				}
				if _, err := r.Check(context.Background(), "demo", withDrift); err != nil { // the first lists
					b.Fatal(err)
				}
				requests.Store(0)
				b.ResetTimer()
				for range b.N {
					if c, err := r.Check(context.Background(), "demo", withDrift); err != nil || len(c.Absent)+len(c.Drift) != 0 {
						b.Fatalf("check %+v %v", c, err)
					}
				}
				reportMillis(b)
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/object")
				b.ReportMetric(float64(requests.Load())/float64(b.N), "requests/op")
			})
		}
	}
}

func benchValues(v string) map[string]any {
	return map[string]any{"demo": map[string]any{"value": v}}
}

func reportMillis(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/op")
}

func benchReleaser(b *testing.B, templates int) (*chartrun.Releaser, string) {
	b.Helper()
	ns := kube.Namespace(b)
	r, err := chartrun.NewReleaser(kube.Config(b), ns, chartrun.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return r, writeChart(b, templates)
}
