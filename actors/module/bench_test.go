package module_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// benchHook is the bench fixture's hook in small: beforeHelm, a values
// patch on every run (the same one: the values change only once).
const benchHook = `#!/bin/sh
if [ "${1:-}" = --config ]; then echo '{"configVersion":"v1","beforeHelm":1}'; exit 0; fi
echo '[{"op":"add","path":"/demo/n","value":1}]' > "$VALUES_JSON_PATCH_PATH"
`

// BenchmarkHookRunModules is one module run with one hook (a real
// executable) through the module actor, its worker and the hook runner, as
// the operator runs it, with 10, 100 and 1,000 modules published on the
// board: the enabled modules its hook reads, and the others' states. The
// operator's cost per run must not grow with the modules: ns/op, allocs/op
// and cpu-µs/run (this process's CPU: the hook is a child, its CPU is
// hook-cpu-µs/run) stay flat from 10 to 1,000.
func BenchmarkHookRunModules(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("modules=%d", n), func(b *testing.B) {
			e := spawnAmong(b, n)
			task := messages.NewModuleRun("demo", "bench")
			e.run(b, task) // the first run patches the values; the rest do not change them
			b.ReportAllocs()
			self, children := rusage(b, syscall.RUSAGE_SELF), rusage(b, syscall.RUSAGE_CHILDREN)
			for b.Loop() {
				if done := e.run(b, task); done.Err != "" || len(done.Later) != 0 {
					b.Fatalf("run: %+v", done)
				}
			}
			b.ReportMetric(float64((rusage(b, syscall.RUSAGE_SELF)-self).Microseconds())/float64(b.N), "cpu-µs/run")
			b.ReportMetric(float64((rusage(b, syscall.RUSAGE_CHILDREN)-children).Microseconds())/float64(b.N), "hook-cpu-µs/run")
		})
	}
}

func rusage(b *testing.B, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
