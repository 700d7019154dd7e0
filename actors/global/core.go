package global

import (
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

var patchScope = hookexec.PatchScope{RootKey: values.GlobalKey, AllowEnabledKeys: true}

// Core is the global actor's decision state: pure, no I/O. Global hooks
// run one task per queue at a time, queues concurrently: each queue has
// its own hook run (in the core's owner.Owner, which holds the global
// scope) and, in the actor, its own worker; their results apply to the one
// global scope, in the order they arrive.
type Core struct {
	own      *owner.Owner
	hooks    hookrun.HookSet
	withKube bool
	// serveWebhooks: the actor has a webhook server for the global hooks'
	// webhook bindings.
	serveWebhooks bool
	// stopping: the actor is being stopped; new tasks fail at once.
	stopping bool
	queues   map[string]*queueRun
	// sync is the running GlobalSynchronization task, while it waits.
	sync *syncing
}

// CoreOptions builds a Core (Options are the actor's).
type CoreOptions struct {
	// Scope is the global values from the values files; the ConfigMap's
	// global section arrives as a owner.SectionChanged.
	Scope values.Scope
	// WithKube: the actor has a kube actor; Paced: a clock, so that
	// executionMinInterval applies; ServeWebhooks: a webhook server.
	WithKube, Paced, ServeWebhooks bool
}

// NewCore returns the core of a global actor that has just started.
func NewCore(o CoreOptions) *Core {
	return &Core{
		own:      owner.New(owner.Options{Name: messages.OwnerGlobal, Scope: o.Scope, WithKube: o.WithKube, Paced: o.Paced}),
		withKube: o.WithKube, serveWebhooks: o.ServeWebhooks, queues: map[string]*queueRun{},
	}
}

// queueRun is a queue's tasks.
type queueRun struct {
	tasks hookrun.Tasks
	// changed: the task's hook changed the values.
	changed bool
}

// current is the task a queue is running.
func (c *Core) current(queue string) (messages.Task, bool) {
	if r := c.queues[queue]; r != nil {
		a, ok := r.tasks.Current()
		return a.Task, ok
	}
	return messages.Task{}, false
}

func (c *Core) queue(name string) *queueRun {
	r, ok := c.queues[name]
	if !ok {
		r = &queueRun{tasks: hookrun.Tasks{PerQueue: true}}
		c.queues[name] = r
	}
	return r
}

// Step applies ev and returns the effects.
func (c *Core) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Started:
		return []Effect{Owned{Effect: owner.Publish{Scope: c.own.Scope()}}, ConfigureHooks{}}
	case TaskAssigned:
		return c.assigned(e.Assigned, env)
	case Stopping:
		c.stopping = true
		return nil
	case OwnerEvent:
		return c.stepOwner(e.Event, env)
	case Configured:
		return c.configure(e)
	case KubeSynced:
		return c.kubeSynced(e.Runs, env)
	case WebhooksRegistered:
		return c.webhooksRegistered(e.Err)
	default:
		panic(fmt.Sprintf("global: event %T has no case in Step", ev))
	}
}

// stepOwner steps the owner with the task its event concerns: a hook
// run's queue's, or for a hook event main's (a Synchronization from the
// watch of main's GlobalSynchronization takes its activation).
func (c *Core) stepOwner(ev owner.Event, env Env) []Effect {
	queue := messages.MainQueue
	if run, ok := ev.(owner.HookRunEvent); ok {
		queue = run.Queue
	}
	cur, running := c.current(queue)
	return c.fromOwner(c.own.Step(ev, owner.Env{Now: env.Now, Task: cur, Running: running}), env)
}

// fromOwner keeps what the owner's effects mean to the global actor: a
// committed run publishes the scope and marks its queue's task as one
// that changed values, a finished run finishes its task, a rejected
// section is logged; the rest goes to the shell.
func (c *Core) fromOwner(effects []owner.Effect, env Env) []Effect {
	var out []Effect
	for _, e := range effects {
		switch e := e.(type) {
		case owner.RunCommitted:
			c.queues[e.Queue].changed = e.ValuesChanged
			out = append(out, Owned{Effect: owner.Publish{Scope: c.own.Scope()}})
		case owner.RunFinished:
			out = append(out, c.finish(e.Queue, e.Err, env)...)
		case owner.ConfigReply:
			if e.Reply.Err != "" {
				out = append(out, Log(step.At(slog.LevelError, "global config rejected; the previous one stays", "err", e.Reply.Err)))
			}
			out = append(out, Owned{Effect: e})
		case owner.CheckReply, owner.Publish, owner.Enqueue, owner.InRun:
			out = append(out, Owned{Effect: e})
		default:
			panic(fmt.Sprintf("global: owner effect %T has no case in fromOwner", e))
		}
	}
	return out
}

// assigned starts a task on its queue's run; a queue gives one task at a
// time, so a second one of a busy queue is refused (hookrun.Tasks). A
// stopping actor refuses every task.
func (c *Core) assigned(a hookrun.Assigned, env Env) []Effect {
	t := a.Task
	if c.stopping {
		return []Effect{Reply{To: a.Queue, Done: messages.TaskDone{ID: t.ID, Queue: t.Queue, Err: "the operator is stopping"}}}
	}
	q := t.Queue // named by the queue (bindings.QueueName) when it was queued
	switch c.queue(q).tasks.Offer(a) {
	case hookrun.Start:
		return append([]Effect{EnsureWorker{Queue: q}}, c.start(q, t, env)...)
	case hookrun.Refuse:
		return []Effect{Reply{To: a.Queue, Done: hookrun.Refused(t, "the global actor")}}
	}
	return nil
}

// start runs a queue's task.
func (c *Core) start(q string, t messages.Task, env Env) []Effect {
	switch t.Kind {
	case messages.TaskGlobalBinding:
		return c.end(q, messages.TaskDone{Next: c.expand(t)}, env)
	case messages.TaskGlobalHook:
		return c.startHook(q, t, env)
	case messages.TaskGlobalSync:
		return c.startSync(q, env)
	}
	return c.end(q, messages.TaskDone{Err: fmt.Sprintf("global actor cannot run %s tasks", t.Kind)}, env)
}

// expand turns a binding run into one task per hook, by ORDER.
func (c *Core) expand(t messages.Task) []messages.Task {
	var out []messages.Task
	for _, h := range c.hooks.Ordered(bindings.Type(t.Binding)) {
		out = append(out, hookrun.OrderTaskOf(messages.OwnerGlobal, h.Name, t))
	}
	return out
}

func (c *Core) startHook(q string, t messages.Task, env Env) []Effect {
	h, ok := c.hooks.Find(t.Hook)
	if !ok {
		return c.end(q, messages.TaskDone{Err: fmt.Sprintf("no global hook %q", t.Hook)}, env)
	}
	req, err := hookrun.Request(h, t.Context, values.GlobalHookInput(c.own.Scope().Snapshot()), patchScope, nil)
	if err != nil {
		return c.end(q, messages.TaskDone{Err: err.Error()}, env)
	}
	c.queues[q].changed = false
	begin := hookrun.Begin{Hook: h, Request: req, Info: hookrun.RunInfoOf(t.Binding, t.Queue, t.AllowFailure, t.Activation)}
	return c.stepOwner(owner.HookRunEvent{Queue: q, Event: begin}, env)
}

// finish reports a hook task; afterAll and event hooks that changed global
// values queue "reload all modules". A Synchronization run's end is told
// to the GlobalSynchronization wait (a failure that allowFailure drops
// counts as finished).
func (c *Core) finish(q string, err error, env Env) []Effect {
	r := c.queues[q]
	running, ok := r.tasks.Current()
	if !ok {
		return nil
	}
	cur := running.Task
	if err != nil {
		var out []Effect
		if cur.AllowFailure {
			out = append(out, c.syncTaskEnded(cur, env)...)
		}
		return append(out, c.end(q, messages.TaskDone{Err: err.Error()}, env)...)
	}
	var later []messages.Task
	if r.changed && !cur.Sync && reloadsOnChange(cur.Binding) {
		later = append(later, messages.NewReloadAll(messages.ActivationGlobalValues, "global values changed by "+cur.Hook))
	}
	return append(c.end(q, messages.TaskDone{Later: later}, env), c.syncTaskEnded(cur, env)...)
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

// end answers a queue's task and starts the next one, if one waits.
func (c *Core) end(q string, d messages.TaskDone, env Env) []Effect {
	r := c.queues[q]
	if r == nil {
		return nil
	}
	to, reply, ok, next, hasNext := r.tasks.Finish(d)
	if !ok {
		return nil
	}
	out := []Effect{Reply{To: to, Done: reply}}
	if hasNext {
		out = append(out, c.start(q, next.Task, env)...)
	}
	return out
}
