package operator

import (
	"log/slog"
	"strings"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// Why discovery leaves a module out when its actor is not there to run it.
const (
	failedToStart  = "the module failed to start (its hooks could not be configured)"
	stoppedByError = "its actor stopped unexpectedly; it is left as it is until its dir is removed and added again or the operator restarts"
)

// childStopped decides on a child of the root that stopped when nobody
// stopped it (a panic restarts a child instead, and a child removed or
// stopped at shutdown is expected). A module actor is marked failed, as
// one whose hooks could not be configured: discovery leaves it out, so its
// release is neither run nor deleted, and the board shows it failed
// (published before the log: a reader of the log finds `module list`
// saying so). Nothing brings it back but its dir going away and coming
// back (a new actor) or a restart of the operator. Another child (config,
// queue, global, kube, schedule) is only logged: the operator goes on
// without it, as before.
func (c *Core) childStopped(e ChildStopped) []Effect {
	logged := Log(step.At(slog.LevelError, "child stopped unexpectedly", "child", e.ID))
	module, ok := strings.CutPrefix(e.Name, messages.ModuleOwner(""))
	if !ok || module == "" {
		return []Effect{logged}
	}
	c.sit.failed[e.Name] = stoppedByError
	return []Effect{ModuleOut{Name: module, How: OutStopped, Why: stoppedByError}, logged}
}
