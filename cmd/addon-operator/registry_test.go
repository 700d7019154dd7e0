package main

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/test/heap"
)

// TestTuneRegistryShrinksTheProcessRegistry: an actor system made after
// tuneRegistry holds a small fraction of the heap one made before holds
// (the process registry's empty shards), and still finds its actors.
func TestTuneRegistryShrinksTheProcessRegistry(t *testing.T) {
	before := heap.HeldBy(func() any { return actor.NewActorSystem() })
	tuneRegistry()
	var sys *actor.ActorSystem
	after := heap.HeldBy(func() any { sys = actor.NewActorSystem(); return sys })
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
