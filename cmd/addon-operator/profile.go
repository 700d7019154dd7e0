package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// Profiling for finding where the time goes (bench/converge uses it):
// ADDON_OPERATOR_CPU_PROFILE and ADDON_OPERATOR_TRACE name files written
// from start to exit.
const (
	envCPUProfile = "ADDON_OPERATOR_CPU_PROFILE"
	envTrace      = "ADDON_OPERATOR_TRACE"
)

// startProfiling starts what the environment asks for; the returned
// function stops it.
func startProfiling(lookup func(string) (string, bool)) (func(), error) {
	var stops []func()
	stop := func() {
		for _, s := range stops {
			s()
		}
	}
	for _, p := range []struct {
		env   string
		start func(io.Writer) error
		stop  func()
	}{
		{envCPUProfile, pprof.StartCPUProfile, pprof.StopCPUProfile},
		{envTrace, trace.Start, trace.Stop},
	} {
		path, ok := lookup(p.env)
		if !ok || path == "" {
			continue
		}
		f, err := os.Create(path)
		if err == nil {
			err = p.start(f)
		}
		if err != nil {
			return stop, fmt.Errorf("%s: %w", p.env, err)
		}
		stops = append(stops, func() { p.stop(); f.Close() })
	}
	return stop, nil
}
