package global

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

var patchScope = hookexec.PatchScope{RootKey: values.GlobalKey, AllowEnabledKeys: true}

// Core is the global actor's decision state: pure, no I/O. Global hooks
// run one task per queue at a time, queues concurrently: each queue has
// its own hook run (and, in the actor, its own worker); their results
// apply to the one global scope, in the order they arrive.
type Core struct {
	Hooks    hookrun.HookSet
	Scope    values.Scope
	WithKube bool
	Paced    bool
	// Stopping: the actor is being stopped; new tasks fail at once.
	Stopping bool
	queues   map[string]*queueRun
	// sync is the running GlobalSynchronization task, while it waits.
	sync *syncing
	// serveWebhooks: the actor has a webhook server for the global hooks'
	// webhook bindings.
	serveWebhooks bool
}

// queueRun is a queue's tasks and its hook run.
type queueRun struct {
	hook  hookrun.Run
	tasks hookrun.Tasks
	// changed: the task's hook changed the values.
	changed bool
}

// Current is the task a queue is running.
func (c *Core) Current(queue string) (messages.Task, bool) {
	if r := c.queues[queue]; r != nil {
		a, ok := r.tasks.Current()
		return a.Task, ok
	}
	return messages.Task{}, false
}

func (c *Core) queue(name string) *queueRun {
	if c.queues == nil {
		c.queues = map[string]*queueRun{}
	}
	r, ok := c.queues[name]
	if !ok {
		r = &queueRun{hook: hookrun.Run{WithKube: c.WithKube, Paced: c.Paced}, tasks: hookrun.Tasks{PerQueue: true}}
		c.queues[name] = r
	}
	return r
}

// Step applies ev and returns the effects.
func (c *Core) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case TaskAssigned:
		return c.assigned(e.Assigned, env)
	case HookRunEvent:
		return c.stepHook(e.Queue, env, e.Event)
	case KubeSynced:
		return c.kubeSynced(e.Runs, env)
	case CheckAsked:
		return []Effect{CheckReply{Reply: hookrun.CheckSection(c.Scope, messages.OwnerGlobal, e.Check)}}
	case SectionChanged:
		return c.sectionChanged(e.Section)
	case Started:
		return c.started(e)
	case Configured:
		return c.configure(e)
	case WebhooksRegistered:
		return c.webhooksRegistered(e.Err)
	case Stopping:
		c.Stopping = true
		return nil
	case HookEventArrived: // a Synchronization from main's GlobalSynchronization's watch takes its activation
		cur, running := c.Current(messages.MainQueue)
		return []Effect{Enqueue{Tasks: []messages.Task{hookrun.EventTaskDuring(e.Event, cur, running)}}}
	default:
		panic(fmt.Sprintf("global: event %T has no case in Step", ev))
	}
}

// assigned starts a task on its queue's run; a queue gives one task at a
// time, so a second one of a busy queue is refused (hookrun.Tasks). A
// stopping actor refuses every task.
func (c *Core) assigned(a hookrun.Assigned, env Env) []Effect {
	t := a.Task
	if c.Stopping {
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
	for _, h := range c.Hooks.Ordered(bindings.Type(t.Binding)) {
		out = append(out, hookrun.OrderTaskOf(messages.OwnerGlobal, h.Name, t))
	}
	return out
}

func (c *Core) startHook(q string, t messages.Task, env Env) []Effect {
	h, ok := c.Hooks.Find(t.Hook)
	if !ok {
		return c.end(q, messages.TaskDone{Err: fmt.Sprintf("no global hook %q", t.Hook)}, env)
	}
	req, err := hookrun.Request(h, t.Context, values.GlobalHookInput(c.Scope.Snapshot()), patchScope, nil)
	if err != nil {
		return c.end(q, messages.TaskDone{Err: err.Error()}, env)
	}
	c.queues[q].changed = false
	return c.stepHook(q, env, hookrun.Begin{Hook: h, Request: req, Info: hookrun.RunInfoOf(t.Binding, t.Queue, t.AllowFailure, t.Activation)})
}

// stepHook feeds a queue's hook run and takes back what concerns the
// global scope: the committed patches and the run's end.
func (c *Core) stepHook(q string, env Env, ev hookrun.Event) []Effect {
	r, ok := c.queues[q]
	if !ok {
		return nil
	}
	var out []Effect
	for _, e := range r.hook.Step(ev, hookrun.Env{Now: env.Now, Scope: c.Scope}) {
		switch e := e.(type) {
		case hookrun.Committed:
			c.Scope, r.changed = e.Scope, e.ValuesChanged
			out = append(out, Publish{})
		case hookrun.Finished:
			return append(out, c.finish(q, e.Err, env)...)
		default:
			out = append(out, InQueue{Queue: q, Effect: e})
		}
	}
	return out
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

func (c *Core) sectionChanged(section any) []Effect {
	next, reply := hookrun.ApplySection(c.Scope, messages.OwnerGlobal, section)
	if reply.Err != "" {
		return []Effect{ConfigReply{Reply: reply}}
	}
	c.Scope = next
	return []Effect{Publish{}, ConfigReply{Reply: reply}}
}
