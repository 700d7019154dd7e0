package queue

import (
	"log/slog"
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// stall keeps a failed task its owner will not have retried
// (TaskDone.Stalled: its module's remediation.retries is spent): no retry
// is armed, and it steps aside so that the tasks behind it run; a run of
// its module takes its place (Queues.Replace) and starts at once.
func (c *Core) stall(t messages.Task, err string) []Effect {
	c.queues.Stall(t.Queue, t.ID, err)
	out := []Effect{Log(step.At(slog.LevelError, "task failed; stalled: not retried until something changes for its module",
		"task", describe(t), "failures", t.Attempts+1, "err", err))}
	return append(out, c.kick(t.Queue)...)
}

// Stall marks the running head failed for good (Task.Stalled): it keeps its
// place, waits for no retry, and lets the tasks behind it run.
func (q *Queues) Stall(name string, id uint64, err string) {
	l := q.lines[name]
	if l == nil || !l.running || l.tasks[0].ID != id {
		return
	}
	h := &l.tasks[0]
	h.Attempts++
	h.LastError, h.NextRetry, h.Running, h.Stalled = err, time.Time{}, false, true
	h.Status, h.StatusSince = "", time.Time{}
	l.running = false
	if l.backoff == nil {
		l.backoff = map[uint64]bool{}
	}
	l.backoff[id] = true
}
