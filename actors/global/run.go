package global

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

const scopeGlobal = bindings.ScopeGlobal

var patchScope = hookexec.PatchScope{RootKey: values.GlobalKey, AllowEnabledKeys: true}

// handleRunTask starts a task on its queue's run. A queue gives one task
// at a time, so a busy run means a confused queue: the task fails and is
// retried.
func (a *Actor) handleRunTask(ctx actor.Context, msg messages.RunTask) {
	t := msg.Task
	if a.stopping {
		ctx.Respond(messages.TaskDone{ID: t.ID, Queue: t.Queue, Err: "the operator is stopping"})
		return
	}
	r := a.runFor(ctx, queueOf(t))
	if r.task != nil {
		ctx.Respond(messages.TaskDone{ID: t.ID, Queue: t.Queue, Err: "the global actor is still running a task of this queue"})
		return
	}
	r.task = &hookrun.Assigned{Task: t, Queue: ctx.Sender()}
	switch t.Kind {
	case messages.TaskGlobalBinding:
		a.done(ctx, r, messages.TaskDone{Next: a.expand(t)})
	case messages.TaskGlobalHook:
		a.startHook(ctx, r, t)
	case messages.TaskGlobalSync:
		a.startSync(ctx, r)
	default:
		a.done(ctx, r, messages.TaskDone{Err: fmt.Sprintf("global actor cannot run %s tasks", t.Kind)})
	}
}

func queueOf(t messages.Task) string {
	if t.Queue == "" {
		return messages.MainQueue
	}
	return t.Queue
}

// expand turns a binding run into one task per hook, by ORDER.
func (a *Actor) expand(t messages.Task) []messages.Task {
	var out []messages.Task
	for _, h := range a.hooks.Ordered(bindings.Type(t.Binding)) {
		out = append(out, messages.Task{Queue: t.Queue, Kind: messages.TaskGlobalHook,
			Owner: messages.OwnerGlobal, Hook: h.Name, Binding: t.Binding, Reason: t.Reason})
	}
	return out
}

func (a *Actor) startHook(ctx actor.Context, r *run, t messages.Task) {
	h, ok := a.hooks.Find(t.Hook)
	if !ok {
		a.done(ctx, r, messages.TaskDone{Err: fmt.Sprintf("no global hook %q", t.Hook)})
		return
	}
	log := a.opts.Log.With("binding", t.Binding, "queue", queueOf(t), "task", t.ID, "attempt", t.Attempts+1)
	req, err := hookrun.Request(h, t.Context, values.GlobalHookInput(a.scope.Snapshot()), patchScope, log)
	if err != nil {
		a.done(ctx, r, messages.TaskDone{Err: err.Error()})
		return
	}
	r.changed = false
	a.stepRun(ctx, r, hookrun.Begin{Hook: h, Request: req, Info: hookrun.RunInfoOf(t.Binding, t.Queue, t.AllowFailure), Now: a.now()})
}

// finish commits a successful step and reports the task; afterAll and
// event hooks that changed global values queue "reload all modules".
func (a *Actor) finish(ctx actor.Context, r *run, err error) {
	cur := r.task
	if err != nil {
		if cur != nil && cur.Task.AllowFailure {
			a.syncFinished(ctx, cur.Task)
		}
		a.done(ctx, r, messages.TaskDone{Err: err.Error()})
		return
	}
	var later []messages.Task
	if cur != nil && r.changed && !cur.Task.Sync && reloadsOnChange(cur.Task.Binding) {
		later = append(later, messages.NewReloadAll("global values changed by "+cur.Task.Hook))
	}
	a.done(ctx, r, messages.TaskDone{Later: later})
	if cur != nil {
		a.syncFinished(ctx, cur.Task)
	}
}

// reloadsOnChange tells whether a values change by a hook of this binding
// is an event (LIFECYCLE-STEPS: afterAll, kubernetes and schedule hooks;
// not a Synchronization run, steps 2 and 5).
func reloadsOnChange(binding string) bool {
	switch bindings.Type(binding) {
	case bindings.OnStartup, bindings.BeforeAll:
		return false
	}
	return true
}

func (a *Actor) done(ctx actor.Context, r *run, d messages.TaskDone) {
	if r.task == nil {
		return
	}
	d.ID, d.Queue = r.task.Task.ID, r.task.Task.Queue
	ctx.Send(r.task.Queue, d)
	r.task = nil
}
