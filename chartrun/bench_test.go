package chartrun_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun"
)

// BenchmarkSkipPath is the cost of a module run whose release is up to
// date: load the chart, checksum, read the history and GET every object of
// the manifest (target: at most 30 ms for 20 templates).
func BenchmarkSkipPath(b *testing.B) {
	for _, n := range []int{2, 20} {
		b.Run(fmt.Sprintf("templates=%d", n), func(b *testing.B) {
			r, dir := benchReleaser(b, n)
			req := chartrun.Request{Release: "demo", ChartDir: dir, Values: map[string]any{"demo": map[string]any{"value": "a"}}}
			if _, err := r.Upgrade(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				res, err := r.Upgrade(context.Background(), req)
				if err != nil || res.Upgraded {
					b.Fatalf("skip path upgraded: %+v %v", res, err)
				}
			}
		})
	}
}

// BenchmarkUpgrade is one real upgrade of a 2-object chart (values change
// every time).
func BenchmarkUpgrade(b *testing.B) {
	r, dir := benchReleaser(b, 2)
	b.ResetTimer()
	for i := range b.N {
		req := chartrun.Request{Release: "demo", ChartDir: dir, Values: map[string]any{"demo": map[string]any{"value": fmt.Sprint(i)}}}
		if res, err := r.Upgrade(context.Background(), req); err != nil || !res.Upgraded {
			b.Fatalf("upgrade %d: %+v %v", i, res, err)
		}
	}
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
