package operator

import (
	"slices"

	"github.com/addon-actors/addon-operator/messages"
)

// sitOut are the modules discovery leaves as they are, neither run nor
// deleted, and why: a part of the Core's state with its own questions,
// as raft's Progress is of its tracker.
type sitOut struct {
	// failed are the module owners whose actor could not start or
	// stopped, with why.
	failed map[string]string
	// unseen are the modules whose dir cannot be seen, with the reason;
	// unloaded those whose dir is there but cannot be loaded.
	unseen   map[string]string
	unloaded []string
	// held are the modules that require one left out, with it (set by
	// each discovery).
	held map[string]string
}

// why says why discovery leaves a module as it is, "" when it does not.
func (s sitOut) why(name string) string {
	switch {
	case s.unseen[name] != "":
		return "left out of discovery: its dir cannot be seen: " + s.unseen[name]
	case s.failed[messages.ModuleOwner(name)] != "":
		return "left out of discovery: " + s.failed[messages.ModuleOwner(name)]
	case s.held[name] != "":
		return "left out of discovery: it requires " + s.held[name] + ", which is left out of discovery"
	}
	return ""
}

// skipped: the module sits out itself, or requires one that does (held).
func (s sitOut) skipped(name string) bool {
	return s.self(name) || s.held[name] != ""
}

// self: the module failed to start, or its dir cannot be seen or loaded (a
// module that requires it is held, not judged unmet).
func (s sitOut) self(name string) bool {
	return s.failed[messages.ModuleOwner(name)] != "" || s.unseen[name] != "" || slices.Contains(s.unloaded, name)
}
