package main

import (
	"fmt"
	"strconv"
	"strings"
)

// goMemory is what the operator's Go runtime said of its memory when
// /metrics was read (its prometheus Go collector).
type goMemory struct {
	heapInuse, heapAlloc, stackInuse float64 // bytes
	goroutines                       float64
}

// goMemoryOf reads the go_memstats and go_goroutines gauges of a
// Prometheus text exposition.
func goMemoryOf(metrics string) goMemory {
	var m goMemory
	fields := map[string]*float64{"go_memstats_heap_inuse_bytes": &m.heapInuse, "go_memstats_heap_alloc_bytes": &m.heapAlloc,
		"go_memstats_stack_inuse_bytes": &m.stackInuse, "go_goroutines": &m.goroutines}
	for _, line := range strings.Split(metrics, "\n") {
		name, value, ok := strings.Cut(line, " ")
		if p := fields[name]; ok && p != nil {
			*p, _ = strconv.ParseFloat(strings.TrimSpace(value), 64)
		}
	}
	return m
}

// line says it in MB.
func (m goMemory) line() string {
	return fmt.Sprintf("Go heap in use %.0f MB (objects %.0f MB), stacks %.1f MB, %0.f goroutines",
		m.heapInuse/(1<<20), m.heapAlloc/(1<<20), m.stackInuse/(1<<20), m.goroutines)
}

// hookRuns counts the hook runs an operator's /metrics says it made: the
// samples of {global,module}_hook_run_seconds_count (every binding's run,
// failed ones too). The --config runs are not in it; the caller adds them.
func hookRuns(metrics string) int {
	n := 0.0
	for _, line := range strings.Split(metrics, "\n") {
		name, rest, ok := strings.Cut(line, "{")
		if !ok || !(strings.HasSuffix(name, "module_hook_run_seconds_count") || strings.HasSuffix(name, "global_hook_run_seconds_count")) {
			continue
		}
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(rest[end+1:]), 64); err == nil {
			n += v
		}
	}
	return int(n)
}
