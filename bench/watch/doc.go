// Command watch measures the operator under a watch load: a global hook
// with a kubernetes binding on many ConfigMaps (jqFilter
// .metadata.labels.phase, keepFullObjectsInMemory: false), the time to
// /readyz 200 and the memory once the first sync has settled, then a storm
// of label patches: how long after the last patch the hook saw it, how
// many hook runs the storm cost, the operator's CPU and its peak anonymous
// RSS meanwhile. It starts its own test cluster, builds the binary, and
// prints the figures.
//
//	go run ./bench/watch -objects 10000
//
// -group puts the binding in a group (its contexts then carry snapshots
// only), -include-self gives it includeSnapshotsFrom: [itself].
// -baseline BIN measures BIN the same way, alternately with this binary
// (-runs N times each), so that load from other processes hits both alike.
// -profiles DIR saves each run's heap profile at rest and after the storm
// (from the debug socket's /debug/pprof/heap, after a GC).
//
// Without a group every patch must reach the hook as one Event context:
// the storm's line says so, or how many were lost; it also counts the
// operator's WARN records of large binding context files (one per hook and
// binding is the contract).
//
// The hook cannot see resourceVersions (keepFullObjectsInMemory: false
// leaves objects out of every context, and the filter keeps the phase
// only), so after the storm one more patch sets one object's phase to a
// value unique to the run; the hook greps its contexts for it, and the
// last change counts as seen when it shows.
package main
