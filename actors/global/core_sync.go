package global

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// syncing is the running GlobalSynchronization task: its wait and the
// queue it answers.
type syncing struct {
	wait  *SyncWait
	queue string
}

// startSync starts the global hooks' bindings for a GlobalSynchronization
// task. Without kubernetes bindings (or a kube actor) the schedules start
// and the task ends at once; otherwise the kube actor hands the
// Synchronization runs back (KubeSynced) and the wait begins.
func (c *Core) startSync(q string, env Env) []Effect {
	if !c.withKube || !c.hooks.HasKubernetes() {
		out := append([]Effect{c.startSchedules(), c.watchKube(false)}, c.webhooksSynced()...)
		return append(out, c.end(q, messages.TaskDone{}, env)...)
	}
	c.sync = &syncing{wait: NewSyncWait(), queue: q}
	return []Effect{c.watchKube(true)}
}

// watchKube starts the global hooks' kubernetes bindings; with sync their
// Synchronization runs come back to the actor (KubeSyncRuns), and those
// of named queues that wait are listed.
func (c *Core) watchKube(sync bool) WatchKube {
	watch := messages.WatchKube{Owner: messages.OwnerGlobal, WaitNamed: sync}
	return WatchKube{Watch: c.hooks.Monitors(watch, true), Sync: sync}
}

func (c *Core) startSchedules() StartSchedules {
	return StartSchedules{Watch: c.hooks.Schedules(messages.OwnerGlobal, "", true)}
}

// webhooksSynced lets the global hooks answer reviews, when their webhooks
// are served.
func (c *Core) webhooksSynced() []Effect {
	if !c.servesWebhooks() {
		return nil
	}
	return []Effect{WebhooksSynced{}}
}

// kubeSynced takes the Synchronization runs of the main queue's bindings
// and the named queues' runs to wait for.
func (c *Core) kubeSynced(runs messages.KubeSyncRuns, env Env) []Effect {
	if c.sync == nil {
		return nil
	}
	return c.syncStep(c.sync.wait.Listed(runs), env)
}

// syncTaskEnded tells the wait that a task ended (a failure that
// allowFailure drops counts as finished).
func (c *Core) syncTaskEnded(t messages.Task, env Env) []Effect {
	if c.sync == nil {
		return nil
	}
	return c.syncStep(c.sync.wait.Finished(t), env)
}

// syncStep turns what the wait decided into effects: the task's end, then
// the schedules' start; the global hooks answer webhooks once the wait is
// over without an error.
func (c *Core) syncStep(st SyncStep, env Env) []Effect {
	s := c.sync
	var out []Effect
	if st.Waiting > 0 {
		out = append(out, Log(step.At(slog.LevelInfo, "waiting for the Synchronization of bindings in named queues", "runs", st.Waiting)))
	}
	if st.Done {
		c.sync = nil
		if st.Err == "" {
			out = append(out, c.webhooksSynced()...)
		}
	}
	if st.EndTask {
		out = append(out, c.end(s.queue, messages.TaskDone{Err: st.Err, Next: st.Next}, env)...)
	}
	if st.StartSchedules {
		out = append(out, c.startSchedules())
	}
	return out
}
