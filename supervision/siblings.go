package supervision

import "github.com/asynkron/protoactor-go/actor"

// Siblings resolves names as siblings of the actor of ctx: children of its
// parent (the operator root), or of the system root when it has none, as
// in tests that spawn it alone. Actors use it to address the operator's
// other children by name (the owners "global" and "module/NAME", "queue").
func Siblings(ctx actor.Context) func(name string) *actor.PID {
	parent, address := ctx.Parent(), ctx.ActorSystem().Address()
	return func(name string) *actor.PID {
		if parent == nil {
			return actor.NewPID(address, name)
		}
		return actor.NewPID(parent.Address, parent.Id+"/"+name)
	}
}

// OrSiblings is resolve, or Siblings(ctx) when there is none: an actor's
// options may say how it addresses the owners (a test's probes), else it
// addresses them as its siblings.
func OrSiblings(resolve func(name string) *actor.PID, ctx actor.Context) func(name string) *actor.PID {
	if resolve != nil {
		return resolve
	}
	return Siblings(ctx)
}
