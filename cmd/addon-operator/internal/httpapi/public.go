package httpapi

import (
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
)

// PublicText is what of an error or a status the TCP port shows: its first
// line, without the hook stderr an error may carry. Hooks print values to
// stderr; the port may be published, so their output never leaves through
// it (the debug socket, mode 0600, keeps the whole text).
func PublicText(s string) string { return hookexec.PublicText(s) }

// PublicQueues is snap with every text a task carries cut by PublicText:
// what /queue serves, as text or JSON. snap itself is left as it is (the
// board shares it with the debug socket).
func PublicQueues(snap messages.QueueSnapshot) messages.QueueSnapshot {
	out := messages.QueueSnapshot{At: snap.At, Queues: make([]messages.QueueState, len(snap.Queues))}
	for i, q := range snap.Queues {
		var tasks []messages.Task
		if q.Tasks != nil {
			tasks = make([]messages.Task, len(q.Tasks))
		}
		for n, t := range q.Tasks {
			t.LastError, t.Supersedes, t.Status = PublicText(t.LastError), PublicText(t.Supersedes), PublicText(t.Status)
			t.Reason = PublicText(t.Reason)
			tasks[n] = t
		}
		out.Queues[i] = messages.QueueState{Name: q.Name, Tasks: tasks}
	}
	return out
}
