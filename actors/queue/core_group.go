package queue

import (
	"github.com/addon-actors/addon-operator/messages"
)

// keepInGroup keeps a module's re-run in its weight group: when a module
// run of a group (Task.Group) succeeded and queued another run of the
// same module (afterHelm changed its values), that run goes to the same
// parallel queue and stays in the group. It reports whether it did.
func keepInGroup(done messages.Task, later []messages.Task) ([]messages.Task, bool) {
	if done.Group == 0 || done.Kind != messages.TaskModuleRun {
		return later, false
	}
	rerun := false
	out := make([]messages.Task, len(later))
	for i, t := range later {
		if t.Kind == messages.TaskModuleRun && t.Module == done.Module {
			t.Queue, t.Group = done.Queue, done.Group
			rerun = true
		}
		out[i] = t
	}
	return out, rerun
}

// reportGroup tells the operator how a module run of a group ended, so
// that the ParallelModuleRun waiting in main learns of it without asking.
func (c *Core) reportGroup(t messages.Task, outcome messages.GroupOutcome, err string) []Effect {
	if t.Group == 0 {
		return nil
	}
	return []Effect{ReportGroup{Report: messages.GroupRunReport{Group: t.Group, Module: t.Module, Queue: t.Queue,
		Outcome: outcome, Err: err}}}
}

// successOutcome is a finished run's outcome: re-queued when it stays in
// its group for another run.
func successOutcome(rerun bool) messages.GroupOutcome {
	if rerun {
		return messages.GroupRunRequeued
	}
	return messages.GroupRunSucceeded
}
