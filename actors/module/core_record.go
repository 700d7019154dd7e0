package module

import (
	"slices"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// The module's last run or delete is recorded phase by phase on its
// published state (State.Run), and its last helm step (State.Helm), for
// `module why`. Each change publishes a new record: readers of the board
// hold the old one.

// recorded tells whether a task's phases are recorded: module runs and
// deletes (an event hook's task keeps the last run's record).
func recorded(k messages.TaskKind) bool {
	return k == messages.TaskModuleRun || k == messages.TaskModuleDelete
}

// beginRecord starts the record of a task.
func (c *Core) beginRecord(t messages.Task, now time.Time) {
	if !recorded(t.Kind) {
		return
	}
	c.state.Run = &board.RunRecord{Kind: string(t.Kind), Reason: t.Reason, Started: now}
}

// markPhase closes the open phase of the record and opens p.
func (c *Core) markPhase(p Phase, now time.Time) {
	if c.run == nil || !recorded(c.run.task.Kind) || c.state.Run == nil {
		return
	}
	next := *c.state.Run
	next.Phases = closePhase(slices.Clone(next.Phases), now)
	next.Phases = append(next.Phases, board.PhaseRecord{Phase: p.String(), Start: now})
	c.state.Run = &next
}

// endRecord closes the record of a finished task.
func (c *Core) endRecord(kind messages.TaskKind, err error, now time.Time) {
	if !recorded(kind) || c.state.Run == nil {
		return
	}
	next := *c.state.Run
	next.Phases = closePhase(slices.Clone(next.Phases), now)
	next.Ended = now
	if err != nil {
		next.Err = err.Error()
	}
	c.state.Run = &next
}

func closePhase(phases []board.PhaseRecord, now time.Time) []board.PhaseRecord {
	if n := len(phases); n > 0 && phases[n-1].End.IsZero() {
		phases[n-1].End = now
	}
	return phases
}

// recordHelm records what the helm step did and why.
func (c *Core) recordHelm(o worker.HelmOutcome, now time.Time) {
	action := o.Action
	if action == "" {
		action = "skipped"
		if o.Upgraded {
			action = "upgraded"
		}
	}
	c.state.Helm = &board.HelmRecord{Action: action, Reason: o.Reason, Revision: o.Revision, At: now}
}
