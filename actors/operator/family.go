package operator

import (
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// Family is the root's children in spawn order (they are stopped in
// reverse order). The lifecycle finds them by name, and may add a child before
// another one or remove one while the operator runs: a module whose dir
// appeared or disappeared.
type Family struct {
	names   []string // spawn order
	byName  map[string]*actor.PID
	removed map[string]bool // PID ids stopped on purpose
}

func newFamily() *Family {
	return &Family{byName: map[string]*actor.PID{}, removed: map[string]bool{}}
}

// PID is the child named name, or nil.
func (f *Family) PID(name string) *actor.PID { return f.byName[name] }

// Spawn spawns c as a child of ctx's actor, placed before the child named
// before (at the end when there is none).
func (f *Family) Spawn(ctx actor.Context, c Child, before string) (*actor.PID, error) {
	if f.byName[c.Name] != nil {
		return nil, fmt.Errorf("child %s exists", c.Name)
	}
	pid, err := ctx.SpawnNamed(c.Props, c.Name)
	if err != nil {
		return nil, fmt.Errorf("spawn child %s: %w", c.Name, err)
	}
	at := slices.Index(f.names, before)
	if at < 0 {
		at = len(f.names)
	}
	f.names = slices.Insert(f.names, at, c.Name)
	f.byName[c.Name] = pid
	return pid, nil
}

// Remove stops the child named name after the messages already sent to
// it (a poison pill); its end is expected.
func (f *Family) Remove(ctx actor.Context, name string) {
	pid := f.byName[name]
	if pid == nil {
		return
	}
	f.forget(name)
	f.removed[pid.Id] = true
	ctx.Poison(pid)
}

func (f *Family) forget(name string) {
	delete(f.byName, name)
	f.names = slices.DeleteFunc(f.names, func(n string) bool { return n == name })
}

// last is the most recently placed child still running.
func (f *Family) last() (*actor.PID, bool) {
	if len(f.names) == 0 {
		return nil, false
	}
	return f.byName[f.names[len(f.names)-1]], true
}

// ended notes that who stopped and reports whether that was expected,
// and when it was not, the child's name ("" for none of the family).
func (f *Family) ended(who *actor.PID) (name string, expected bool) {
	if f.removed[who.Id] {
		delete(f.removed, who.Id)
		return "", true
	}
	for n, pid := range f.byName {
		if pid.Equal(who) {
			name = n
			f.forget(n)
		}
	}
	return name, false
}

// Len is how many children run.
func (f *Family) Len() int { return len(f.names) }

// Child names the lifecycle expects among the root's children: the
// siblings owners address (hookrun.Sibling, named once there) and the
// global actor.
const (
	ChildConfig   = string(hookrun.SiblingConfig)
	ChildQueue    = string(hookrun.SiblingQueue)
	ChildSchedule = string(hookrun.SiblingSchedule)
	ChildKube     = string(hookrun.SiblingKube)
	ChildGlobal   = messages.OwnerGlobal
)

// ModuleChild is the child name of a module actor.
func ModuleChild(name string) string { return messages.ModuleOwner(name) }
