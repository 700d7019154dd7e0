package main

import "testing"

func TestHookRunsSumsBothScopes(t *testing.T) {
	text := `# HELP addon_operator_module_hook_run_seconds Duration of hook runs.
addon_operator_module_hook_run_seconds_bucket{module="m0",hook="h",binding="beforeHelm",queue="main",activation="",le="0.001"} 0
addon_operator_module_hook_run_seconds_count{module="m0",hook="h",binding="beforeHelm",queue="main",activation=""} 2
addon_operator_module_hook_run_seconds_count{module="m1",hook="h",binding="afterHelm",queue="main",activation=""} 3
addon_operator_module_hook_run_seconds_sum{module="m1",hook="h",binding="afterHelm",queue="main",activation=""} 0.5
addon_operator_global_hook_run_seconds_count{hook="g",binding="onStartup",queue="main",activation=""} 1
addon_operator_module_hook_run_user_cpu_seconds_count{module="m0",hook="h",binding="beforeHelm",queue="main",activation=""} 7
`
	if got := hookRuns(text); got != 6 {
		t.Fatalf("hookRuns = %d, want 6 (2+3 module runs, 1 global; buckets, sums and other histograms left out)", got)
	}
}

func TestGoMemoryOf(t *testing.T) {
	text := "# TYPE go_goroutines gauge\ngo_goroutines 250\ngo_memstats_heap_inuse_bytes 6.291456e+07\ngo_memstats_heap_alloc_bytes 4.194304e+07\ngo_memstats_stack_inuse_bytes 2.097152e+06\ngo_memstats_heap_inuse_bytes_x 1\n"
	m := goMemoryOf(text)
	if m.goroutines != 250 || m.heapInuse != 60<<20 || m.heapAlloc != 40<<20 || m.stackInuse != 2<<20 {
		t.Fatalf("goMemoryOf = %+v", m)
	}
	if got, want := m.line(), "Go heap in use 60 MB (objects 40 MB), stacks 2.0 MB, 250 goroutines"; got != want {
		t.Fatalf("line = %q, want %q", got, want)
	}
}
