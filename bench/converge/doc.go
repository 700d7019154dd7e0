// Command converge measures the operator as a process: the cold converge of
// generated modules (process start to /readyz 200), a restart with nothing
// changed (which must upgrade no release), and the peak RSS of each run. It
// starts its own test cluster, builds the binary, and prints the figures.
//
//	go run ./bench/converge -modules 100 -restarts 5
//
// With -restarts N the restart is measured N times and the median printed
// too (the machine is shared: single runs are noisy). With -baseline BIN
// each restart is measured with BIN too, alternately, so that load from
// other processes hits both alike. -weights K prefixes the module dirs
// with K numbers (K weight groups of equal size) and -parallel N sets
// ADDON_OPERATOR_PARALLEL_MODULE_RUNS, so that a weight group's modules
// run N at a time:
//
//	go run ./bench/converge -modules 100 -weights 10 -parallel 8 -restarts 3
//
// -requires N makes the first N modules roots (no module.yaml) and gives
// every other module a module.yaml requiring one root, round-robin, with
// the constraint ">= 0.0.0" (any version: it orders, never disables). The
// operator then orders those modules by their requirement, not their
// weight: the roots run in weight order (one by one without -weights), and
// a root's modules may start once it is done (-parallel N: N runs at a
// time):
//
//	go run ./bench/converge -modules 100 -requires 10 -parallel 8 -restarts 3
//
// -env KEY=VALUE sets a variable for the measured runs, -baseline-env for
// the baseline's; without -baseline the baseline is the same binary, so
// that one setting is compared on and off in the same run, alternately
// (the drift checks, on by default):
//
//	go run ./bench/converge -modules 100 -restarts 5 -baseline-env ADDON_OPERATOR_DRIFT=off
//
// -settle D keeps each run going D after it is ready before its requests
// are counted: the Module objects are written after the first converge,
// and their writes (and Events) are counted on a line of their own:
//
//	go run ./bench/converge -modules 300 -restarts 2 -settle 20s -env ADDON_OPERATOR_MODULE_OBJECTS=true -baseline-env ADDON_OPERATOR_MODULE_OBJECTS=false
//
// Each run prints, besides its time, where the CPU went: the operator's
// own, its hooks' (children it waited for), kube-apiserver's and etcd's,
// and the wall time that sum takes on this machine's cores (a converge
// cannot be faster); then the requests the apiserver served, per module.
// Before the runs it prices the fixture's hook alone. -hooks=false leaves
// the hooks out: the operator's and helm's own cost.
//
// Each run's lines also say how far its ready time is from that CPU floor
// (ready / floor); the operator's CPU per module and per hook run (the
// bindings' runs from its /metrics, plus one --config per module's hook);
// its anonymous memory at rest (RssAnon 3 s after ready, once it returned
// the start's garbage) per module, with the Go heap, stacks and goroutines
// then; and when discovery ended beside the CPU spent by then (sampled
// every 20 ms) over the cores and the hooks' --config runs' CPU over the
// cores. -disabled N disables the last N modules (what a disabled module
// costs). -profile DIR adds a heap profile of each run, taken at rest.
//
// -scale 100,1000 runs each size on a cluster of its own (the binary built
// once) and ends with a line per size and the ratio of the last to the
// first: ready against the floor, discovery, the operator's CPU per module
// and per hook run, anon per module:
//
//	go run ./bench/converge -scale 100,1000 -weights 10 -parallel 8 -restarts 3
package main
