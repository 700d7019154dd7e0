package heap

import "runtime"

// HeldBy is the heap that what build returns keeps alive, after the
// garbage is collected (twice: the first moves sync.Pool contents to
// their victim caches). Meant for a single goroutine: other goroutines'
// allocations meanwhile count too.
func HeldBy(build func() any) uint64 {
	before := Live()
	kept := build()
	after := Live()
	runtime.KeepAlive(kept)
	return after - min(after, before)
}

// Live is the live heap after a collection (two, as in HeldBy).
func Live() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
