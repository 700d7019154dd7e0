package hookexec

import (
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// BenchmarkRunCPU reports the CPU time the runner's own process spends per
// run of a trivial hook (user+sys of this process: the hook's process is a
// child and not counted), the figure that bench/converge's CPU per module
// is made of; compare it with a bare exec.Command of the same hook. The
// hook's own CPU (`#!/usr/bin/env bash`, started without env) is beside it.
func BenchmarkRunCPU(b *testing.B) {
	values := []byte(`{"global":{"enabledModules":["a","b"]},"someModule":{"param1":"value1"}}`)
	req := Request{BindingContext: bctx.Marshal([]bctx.Context{bctx.Order("beforeHelm", nil)}), Values: values,
		ConfigValues: values, Scope: PatchScope{RootKey: "someModule"}}
	for _, tmp := range benchTmpDirs(b) {
		b.Run("tmp="+tmp.name, func(b *testing.B) {
			req.Hook = testHook(b, "trivial.sh")
			r := NewRunner(Options{TmpDir: tmp.dir, Environ: baseEnv()})
			defer r.Close()
			start := selfCPU(b)
			var hookCPU time.Duration
			for b.Loop() {
				res, err := r.Run(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				hookCPU += res.UserCPU + res.SysCPU
			}
			r.Close() // the directories made ahead are part of the cost
			b.ReportMetric(float64((selfCPU(b)-start).Microseconds())/float64(b.N), "cpu-µs/run")
			b.ReportMetric(float64(hookCPU.Microseconds())/float64(b.N), "hook-cpu-µs/run")
		})
	}
}

func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkBareExecCPU(b *testing.B) {
	hook := testHook(b, "trivial.sh")
	r := NewRunner(Options{TmpDir: b.TempDir(), Environ: baseEnv()})
	defer r.Close()
	start := selfCPU(b)
	for b.Loop() {
		cmd := exec.Command(hook.Path)
		cmd.Dir, cmd.Env = hook.Dir(), r.environ
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((selfCPU(b)-start).Microseconds())/float64(b.N), "cpu-µs/run")
}
