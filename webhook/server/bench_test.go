package server_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
)

// BenchmarkAdmission measures a review's round trip through the TLS
// server with a trivial Runner, at 1 and 20 concurrent clients, and
// reports p50 and p99.
func BenchmarkAdmission(b *testing.B) {
	for _, clients := range []int{1, 20} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			h := start(b, serverConfig(webhooktest.Funcs{OnAdmit: allow}))
			h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "fast", Kind: webhook.Validating, Concurrency: clients}}, nil)
			h.d.Ready("mod", "h.sh")
			latencies := make([]time.Duration, b.N)
			var wg sync.WaitGroup
			next := make(chan int)
			b.ResetTimer()
			for range clients {
				wg.Go(func() {
					for i := range next {
						began := time.Now()
						h.review(b, "/mod/fast", "u")
						latencies[i] = time.Since(began)
					}
				})
			}
			for i := range b.N {
				next <- i
			}
			close(next)
			wg.Wait()
			b.StopTimer()
			sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
		})
	}
}
