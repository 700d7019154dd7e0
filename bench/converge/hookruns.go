package main

import (
	"strconv"
	"strings"
)

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
