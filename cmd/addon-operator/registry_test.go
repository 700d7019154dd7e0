package main

import (
	"runtime"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
)

// TestTuneRegistryShrinksTheProcessRegistry: an actor system made after
// tuneRegistry holds a small fraction of the heap one made before holds
// (the process registry's empty shards), and still finds its actors.
func TestTuneRegistryShrinksTheProcessRegistry(t *testing.T) {
	before := heapOf(func() any { return actor.NewActorSystem() })
	tuneRegistry()
	var sys *actor.ActorSystem
	after := heapOf(func() any { sys = actor.NewActorSystem(); return sys })
	t.Logf("an actor system holds %d KB, %d KB with the registry tuned", before>>10, after>>10)
	if after*4 > before {
		t.Fatalf("tuned: %d bytes, default: %d bytes; want under a quarter", after, before)
	}
	got := make(chan any, 1)
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if s, ok := c.Message().(string); ok {
			got <- s
		}
	}))
	sys.Root.Send(pid, "found")
	if m := <-got; m != "found" {
		t.Fatalf("the actor got %v", m)
	}
	sys.Shutdown()
}

// heapOf is the heap what build returns holds after a collection.
func heapOf(build func() any) uint64 {
	var b, a runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&b)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&a)
	runtime.KeepAlive(kept)
	return a.HeapAlloc - min(a.HeapAlloc, b.HeapAlloc)
}
