package queue_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/messages"
)

// BenchmarkConvergeQueue is the main queue's side of a converge of n
// modules: the module runs inserted at once, then each taken, finished and
// the queues published. Every publication copies the waiting tasks (288
// bytes each), so the time per module grows with n: 82 µs at 100 modules,
// 512 µs at 1,000 on the 2-core machine under load. At 100–300 modules that
// is under 2% of a module run's CPU (bench/converge), so the copy is kept.
func BenchmarkConvergeQueue(b *testing.B) {
	for _, n := range []int{100, 1000} {
		tasks := make([]messages.Task, n)
		for i := range tasks {
			tasks[i] = messages.NewModuleRun(fmt.Sprintf("m%d", i), "bench")
		}
		b.Run(fmt.Sprintf("modules=%d", n), func(b *testing.B) {
			now := time.Unix(1_000_000, 0)
			b.ReportAllocs()
			for b.Loop() {
				q := queue.NewQueues()
				q.InsertNext(tasks, now)
				publish(q, now)
				for range n {
					t, ok := q.Next(messages.MainQueue)
					if !ok {
						b.Fatal("no task at the head")
					}
					publish(q, now)
					q.Finish(messages.MainQueue, t.ID)
					publish(q, now)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/module")
		})
	}
}

var sink messages.QueueSnapshot

func publish(q *queue.Queues, now time.Time) { sink = q.Snapshot(now) }
