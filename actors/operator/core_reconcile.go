package operator

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// reconcile decides on a run asked on a Module object (its reconcile-at
// or reset-at annotation):
//
//   - an enabled module: its run is queued, forced for a reconcile (its
//     helm step upgrades an up-to-date release). Like any module run, it
//     takes the place of a retry in backoff and starts at once, its attempts
//     counted again (DESIGN §4: that is the reset); it merges into a run of
//     the module that waits, which it forces;
//   - "global": a "reload all modules" (its beforeAll and afterAll global
//     hooks, discovery, the module runs), which supersedes a failing
//     converge; none before start-up has applied the config (the first
//     converge runs them);
//   - a module the last discovery did not enable, or one the operator
//     does not know: nothing to run, said in the log.
func (c *Core) reconcile(msg messages.ReconcileModule) []Effect {
	why := msg.Why
	if why == "" {
		why = "reconcile requested"
	}
	switch {
	case msg.Module == messages.OwnerGlobal && !c.boot.applied:
		return []Effect{reconcileLog(msg, "start-up is not done: its converge runs the global hooks")}
	case msg.Module == messages.OwnerGlobal:
		return []Effect{reconcileLog(msg, "reload all modules queued"),
			Enqueue{Tasks: []messages.Task{messages.NewReloadAll(messages.ActivationReloadAll, why)}}}
	case !c.enabled[msg.Module]:
		return []Effect{reconcileLog(msg, "the module is not enabled: nothing to run")}
	}
	run := messages.NewModuleRun(msg.Module, why)
	run.Force = msg.Force
	return []Effect{reconcileLog(msg, "module run queued"), Enqueue{Tasks: []messages.Task{run}}}
}

func reconcileLog(msg messages.ReconcileModule, what string) Log {
	return Log(step.At(slog.LevelInfo, "run asked on the Module object: "+what, "module", msg.Module,
		"force", msg.Force, "reset", msg.Reset))
}
