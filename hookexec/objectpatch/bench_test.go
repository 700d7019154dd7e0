package objectpatch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// BenchmarkApply1000 applies one hook run's 1,000 CreateOrUpdate operations
// of new ConfigMaps, at the default client limits (50 QPS, burst 100) and
// unlimited. Run it with -benchtime 1x.
func BenchmarkApply1000(b *testing.B) {
	for _, lim := range []struct {
		name  string
		qps   float32
		burst int
	}{{"qps50", 50, 100}, {"unlimited", -1, 0}} {
		b.Run(lim.name, func(b *testing.B) {
			e := newEnvQPS(b, 0, lim.qps, lim.burst)
			var total time.Duration
			for i := range b.N {
				ops, err := objectpatch.Parse([]byte(stream(e.ns, i, 1000)))
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := e.applier.Apply(context.Background(), "bench", ops); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/1000ops")
		})
	}
}

func stream(ns string, run, n int) string {
	var sb strings.Builder
	for j := range n {
		fmt.Fprintf(&sb, `{"operation":"CreateOrUpdate","object":{"apiVersion":"v1","kind":"ConfigMap",`+
			`"metadata":{"name":"cm-%d-%d","namespace":"%s"},"data":{"k":"v"}}}`+"\n", run, j, ns)
	}
	return sb.String()
}
