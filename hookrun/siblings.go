package hookrun

import "github.com/asynkron/protoactor-go/actor"

// Sibling is the name of a child of the operator root that an owner
// addresses: the operator spawns its children under these names, owners
// find them under their parent.
type Sibling string

// The siblings an owner's effects go to.
const (
	SiblingConfig   Sibling = "config"
	SiblingQueue    Sibling = "queue"
	SiblingSchedule Sibling = "schedule"
	SiblingKube     Sibling = "kube"
)

// Under is the sibling's PID as a child of parent (nil without a parent).
func (s Sibling) Under(parent *actor.PID) *actor.PID {
	if parent == nil {
		return nil
	}
	return actor.NewPID(parent.Address, parent.Id+"/"+string(s))
}

// Siblings names the operator's other children for an owner: the peers its
// effects are addressed to. Explicit PIDs come from the owner's options;
// Resolve fills the others in under its parent.
type Siblings struct {
	Report *actor.PID // OwnerReady and the like; nil: the parent
	Config *actor.PID // the config actor; nil: SiblingConfig
	Queue  *actor.PID // the queue actor; nil: SiblingQueue
	// Schedule and Kube receive the owner's schedule and kubernetes
	// bindings; nil: SiblingSchedule and SiblingKube.
	Schedule *actor.PID
	Kube     *actor.PID
}

// Resolve fills the unset PIDs with the siblings under parent (none when
// parent is nil).
func (s Siblings) Resolve(parent *actor.PID) Siblings {
	if s.Report == nil {
		s.Report = parent
	}
	fill := func(pid **actor.PID, name Sibling) {
		if *pid == nil {
			*pid = name.Under(parent)
		}
	}
	fill(&s.Config, SiblingConfig)
	fill(&s.Queue, SiblingQueue)
	fill(&s.Schedule, SiblingSchedule)
	fill(&s.Kube, SiblingKube)
	return s
}
