package main

import (
	"fmt"
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
	if path, ok := lookup(envCPUProfile); ok && path != "" {
		f, err := os.Create(path)
		if err != nil {
			return stop, fmt.Errorf("%s: %w", envCPUProfile, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return stop, fmt.Errorf("%s: %w", envCPUProfile, err)
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if path, ok := lookup(envTrace); ok && path != "" {
		f, err := os.Create(path)
		if err != nil {
			return stop, fmt.Errorf("%s: %w", envTrace, err)
		}
		if err := trace.Start(f); err != nil {
			return stop, fmt.Errorf("%s: %w", envTrace, err)
		}
		stops = append(stops, func() { trace.Stop(); f.Close() })
	}
	return stop, nil
}
