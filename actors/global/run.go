package global

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/owner"
	"github.com/addon-actors/addon-operator/actors/values"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/messages"
)

const scopeGlobal = bindings.ScopeGlobal

var patchScope = hookexec.PatchScope{RootKey: values.GlobalKey, AllowEnabledKeys: true}

func (a *Actor) handleRunTask(ctx actor.Context, msg messages.RunTask) {
	if a.tasks.Offer(owner.Assigned{Task: msg.Task, Queue: ctx.Sender()}) {
		a.start(ctx, msg.Task)
	}
}

func (a *Actor) start(ctx actor.Context, t messages.Task) {
	switch t.Kind {
	case messages.TaskGlobalBinding:
		a.done(ctx, messages.TaskDone{Next: a.expand(t)})
	case messages.TaskGlobalHook:
		a.startHook(ctx, t)
	default:
		a.done(ctx, messages.TaskDone{Err: fmt.Sprintf("global actor cannot run %s tasks", t.Kind)})
	}
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

func (a *Actor) startHook(ctx actor.Context, t messages.Task) {
	h, ok := a.hooks.Find(t.Hook)
	if !ok {
		a.done(ctx, messages.TaskDone{Err: fmt.Sprintf("no global hook %q", t.Hook)})
		return
	}
	queue := t.Queue
	if queue == "" {
		queue = messages.MainQueue
	}
	log := a.opts.Log.With("binding", t.Binding, "queue", queue, "task", t.ID, "attempt", t.Attempts+1)
	req, err := owner.Request(h, t.Context, values.GlobalHookInput(a.scope.Snapshot()), patchScope, log)
	if err != nil {
		a.done(ctx, messages.TaskDone{Err: err.Error()})
		return
	}
	a.step.Start(ctx, h, req, owner.RunInfoOf(t.Binding, t.Queue, t.AllowFailure))
}

// finish commits a successful step and reports the task; afterAll and
// event hooks that changed global values queue "reload all modules".
func (a *Actor) finish(ctx actor.Context, res owner.StepResult) {
	if res.Err != nil {
		a.done(ctx, messages.TaskDone{Err: res.Err.Error()})
		return
	}
	a.scope = res.Applied.Scope
	a.publish()
	var later []messages.Task
	cur, _ := a.tasks.Current()
	if res.Applied.ValuesChanged && reloadsOnChange(cur.Task.Binding) {
		later = append(later, messages.NewReloadAll("global values changed by "+cur.Task.Hook))
	}
	a.done(ctx, messages.TaskDone{Later: later})
}

// reloadsOnChange tells whether a values change by a hook of this binding
// is an event (LIFECYCLE-STEPS: afterAll, kubernetes and schedule hooks).
func reloadsOnChange(binding string) bool {
	switch bindings.Type(binding) {
	case bindings.OnStartup, bindings.BeforeAll:
		return false
	}
	return true
}

func (a *Actor) done(ctx actor.Context, d messages.TaskDone) {
	if next, ok := a.tasks.Finish(ctx, d); ok {
		a.start(ctx, next.Task)
	}
}
