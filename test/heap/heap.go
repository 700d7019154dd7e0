package heap

import "runtime"

// HeldBy is the heap that what build returns keeps alive, after the
// garbage is collected (twice: the first moves sync.Pool contents to
// their victim caches). Meant for a single goroutine: other goroutines'
// allocations meanwhile count too.
func HeldBy(build func() any) uint64 {
	before := live()
	kept := build()
	after := live()
	runtime.KeepAlive(kept)
	return after - min(after, before)
}

func live() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
