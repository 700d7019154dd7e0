package hookrun

import "github.com/asynkron/protoactor-go/actor"

// Siblings names the operator's other children for an owner: the peers its
// effects are addressed to. Explicit PIDs come from the owner's options;
// Resolve fills the others in under its parent.
type Siblings struct {
	Report *actor.PID // OwnerReady and the like; nil: the parent
	Config *actor.PID // the config actor; nil: sibling "config"
	Queue  *actor.PID // the queue actor; nil: sibling "queue"
	// Schedule and Kube receive the owner's schedule and kubernetes
	// bindings; nil: siblings "schedule" and "kube".
	Schedule *actor.PID
	Kube     *actor.PID
}

// Resolve fills the unset PIDs with the siblings under parent (none when
// parent is nil).
func (s Siblings) Resolve(parent *actor.PID) Siblings {
	sibling := func(name string) *actor.PID {
		if parent == nil {
			return nil
		}
		return actor.NewPID(parent.Address, parent.Id+"/"+name)
	}
	if s.Report == nil {
		s.Report = parent
	}
	fill := func(pid **actor.PID, name string) {
		if *pid == nil {
			*pid = sibling(name)
		}
	}
	fill(&s.Config, "config")
	fill(&s.Queue, "queue")
	fill(&s.Schedule, "schedule")
	fill(&s.Kube, "kube")
	return s
}
