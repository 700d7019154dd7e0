package module

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Phase is where a module's task is.
type Phase int

// The phases of a module's tasks. A module run goes Startup (until a run
// has completed since the module was enabled) -> KubeSync (the first run
// after enabling: start the bindings, wait for their Synchronization runs)
// -> SyncHooks -> BeforeHelm -> Helm -> AfterHelm; a module delete goes
// BeforeDeleteHelm (only with a chart whose release exists) -> Delete ->
// AfterDeleteHelm; an event task is one EventHook. A module with crds/
// applies them first (EnsureCRDs) in a run that goes through Startup; a
// module with webhook bindings registers them next (EnsureWebhooks), and
// its delete removes them last (DropWebhooks).
const (
	Idle Phase = iota
	Startup
	KubeSync
	SyncHooks
	BeforeHelm
	Helm
	AfterHelm
	BeforeDeleteHelm
	Delete
	AfterDeleteHelm
	EventHook
	EnsureCRDs
	EnsureWebhooks
	DropWebhooks
)

var phaseNames = [...]string{"Idle", "Startup", "KubeSync", "SyncHooks", "BeforeHelm", "Helm", "AfterHelm",
	"BeforeDeleteHelm", "Delete", "AfterDeleteHelm", "EventHook", "EnsureCRDs",
	"EnsureWebhooks", "DropWebhooks"}

func (p Phase) String() string { return phaseNames[p] }

// Core is the module's decision state: pure, no I/O. The actor feeds it
// events with Step and carries out the effects it returns, in order.
type Core struct {
	Names    values.Names
	HasChart bool
	// HasEnabledScript: discovery runs the module's enabled script.
	HasEnabledScript bool
	// HasCRDs: the module has crds/ files to apply before the first run
	// since it was enabled.
	HasCRDs bool
	// HasWebhooks: the module's hooks have webhook bindings, registered
	// while it is enabled.
	HasWebhooks bool
	// WithKube: there is a kube actor (its bindings report their
	// Synchronization runs).
	WithKube bool
	Hooks    hookrun.HookSet
	Scope    values.Scope
	State    board.ModuleState
	Watching bool
	// retiring: the operator disabled the module while its bindings were
	// on; they stay on for its delete (beforeDeleteHelm and
	// afterDeleteHelm see snapshots, UPSTREAM §3), their events queue
	// nothing, and the delete's end stops them.
	retiring bool
	// DriftMode is the module's drift mode (DriftReport, DriftRestore,
	// DriftOff); drift is what the checks found of its release's drift.
	DriftMode string
	drift     driftTracker
	// checking: the worker is looking at the release's objects.
	checking bool
	life     startup
	tasks    hookrun.Tasks
	hook     hookrun.Run
	run      *moduleRun
}

// moduleRun is the running task: its phase, the hooks left in the phase,
// and the inputs pinned when it started.
type moduleRun struct {
	task          messages.Task
	phase         Phase
	left          []step
	pinned        Env
	valuesChanged bool
	started       time.Time
	helmStarted   time.Time
}

// step is one hook to run in a phase; reacts: a values change by it queues
// another module run; allowFailure (a Synchronization run of a binding
// with allowFailure): its failure is logged and counted apart, and the
// run goes on with the next step.
type step struct {
	hook         hookrun.Hook
	binding      string
	context      []byte
	reacts       bool
	allowFailure bool
}

// Busy tells whether a task is running.
func (c *Core) Busy() bool { _, busy := c.tasks.Current(); return busy }

// Waiting is how many tasks the module holds, the running one included.
func (c *Core) Waiting() int { return c.tasks.Len() }

// Current is the running task.
func (c *Core) Current() (messages.Task, bool) {
	a, ok := c.tasks.Current()
	return a.Task, ok
}

// owner is the module's name as an owner of tasks.
func (c *Core) owner() string { return messages.ModuleOwner(c.Names.Name) }

// Phase is the running task's phase.
func (c *Core) Phase() Phase {
	if c.run == nil {
		return Idle
	}
	return c.run.phase
}

// Step applies ev and returns the effects. Events are handled by what
// they concern: the module's own life (stepLife), the running task's hook
// run (stepHook) or phase results (stepPhase), and what comes from outside
// its tasks.
func (c *Core) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Started, Configured, TaskAssigned, EnabledAsked, EnabledScriptDone, Removed, Disabled:
		return c.stepLife(ev, env)
	case HookRunEvent:
		return c.stepHook(e.Event, env)
	case KubeSynced, HelmWaiting, HelmFinished, ReleaseChecked, DeleteFinished, CRDsApplied,
		WebhooksRegistered, WebhooksUnregistered:
		return c.stepPhase(ev, env)
	case SectionChanged:
		return c.configChanged(e)
	case CheckAsked:
		return []Effect{CheckReply{Reply: hookrun.CheckSection(c.Scope, c.owner(), e.Check)}}
	case CheckDue:
		return c.checkDue()
	case ReconfigureDue:
		return c.reconfigureDue()
	case ObjectsChecked:
		return c.objectsChecked(e, env)
	case DriftRestored:
		return c.driftRestored(e.Result)
	case HookEventArrived:
		if c.retiring {
			return nil
		}
		cur, running := c.Current()
		return []Effect{Enqueue{Tasks: []messages.Task{hookrun.EventTaskDuring(e.Event, cur, running)}}}
	default:
		panic(fmt.Sprintf("module: event %T has no case in Step", ev))
	}
}

// stepLife handles the events of the module's own life (lifecycle.go).
func (c *Core) stepLife(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Started:
		return c.started(e)
	case Configured:
		return c.configure(e, env)
	case TaskAssigned, EnabledAsked:
		return c.whenConfigured(ev, env)
	case EnabledScriptDone:
		return c.enabledScriptDone(e)
	case Removed:
		return c.remove()
	case Disabled:
		return c.disabled()
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepLife", ev))
	}
}

// stepPhase takes the worker's and the kube actor's results of the
// running task's phases (phases.go, crds.go, webhooks.go, readywait.go).
func (c *Core) stepPhase(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case KubeSynced:
		return c.kubeSynced(e.Runs, env)
	case HelmWaiting:
		return c.helmWaiting(e.NotReady, env)
	case HelmFinished:
		c.State.Wait = nil // the wait ends with the step; published with its outcome
		return append(c.helmDrift(e.Result, env.Now), c.helmFinished(e.Result, env)...)
	case ReleaseChecked:
		return c.releaseChecked(e.Result, env)
	case DeleteFinished:
		return c.deleteFinished(e.Result, env)
	case CRDsApplied:
		return c.crdsApplied(e.Err, env)
	case WebhooksRegistered:
		return c.webhooksRegistered(e.Err, env)
	case WebhooksUnregistered:
		return c.webhooksUnregistered(e.Err, env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepPhase", ev))
	}
}

// sectionChanged takes the module's ConfigMap section. The echo of our own
// config patch write equals the config layer already: nothing changes.
func (c *Core) sectionChanged(section any, reloadFollows bool) []Effect {
	next, reply := hookrun.ApplySection(c.Scope, c.owner(), section)
	if reply.Err != "" {
		return []Effect{ConfigReply{Reply: reply}}
	}
	c.Scope = next
	out := []Effect{Publish{}, ConfigReply{Reply: reply}}
	if reply.Changed && c.State.Enabled && !reloadFollows {
		// The module queues its own run: the operator is not asked (unless
		// the same change reloads all modules, which runs this one).
		out = append(out, Enqueue{Tasks: []messages.Task{
			messages.NewModuleRun(c.Names.Name, "module section of the ConfigMap changed")}})
	}
	return out
}

// disabled marks the module disabled; its bindings stay on until its
// delete ends (retiring).
func (c *Core) disabled() []Effect {
	c.State.Enabled, c.State.StartupDone = false, false
	c.drift.reset() // its release is deleted
	c.State.Drift = nil
	c.retiring = c.Watching
	return []Effect{DriftCounted{}, Publish{}}
}

// disable ends a delete: the module is disabled and its bindings stop.
func (c *Core) disable() []Effect {
	c.State.Enabled, c.State.StartupDone = false, false
	c.retiring = false
	return append(c.watch(false, false), Publish{})
}

// watch starts or stops the bindings, once.
func (c *Core) watch(on, sync bool) []Effect {
	if c.Watching == on {
		return nil
	}
	c.Watching = on
	return []Effect{Watch{On: on, Sync: sync}}
}

// assigned starts a task, or lets it wait for the running one.
func (c *Core) assigned(a hookrun.Assigned, env Env) []Effect {
	if c.tasks.Offer(a) == hookrun.Start {
		return c.start(a.Task, env)
	}
	return nil
}

// start begins a task: its inputs are pinned now.
func (c *Core) start(t messages.Task, env Env) []Effect {
	c.run = &moduleRun{task: t, pinned: env, started: env.Now}
	c.beginRecord(t, env.Now)
	c.State.Phase = string(t.Kind)
	out := []Effect{Publish{}}
	switch t.Kind {
	case messages.TaskModuleRun:
		if c.retiring { // enabled again before a delete: bindings restart
			c.retiring = false
			out = append(out, c.watch(false, false)...)
		}
		if !c.State.StartupDone {
			return append(out, c.enter(c.firstPhase(), env)...)
		}
		return append(out, c.enter(KubeSync, env)...)
	case messages.TaskModuleDelete:
		return append(out, c.enter(BeforeDeleteHelm, env)...)
	case messages.TaskModuleHook:
		h, ok := c.Hooks.Find(t.Hook)
		if !ok {
			return append(out, c.finish(fmt.Errorf("module %s has no hook %q", c.Names.Name, t.Hook), env)...)
		}
		c.run.phase = EventHook
		c.run.left = []step{{hook: h, binding: t.Binding, context: t.Context, reacts: !t.Sync}}
		return append(out, c.nextHook(env)...)
	}
	return append(out, c.finish(fmt.Errorf("module actor cannot run %s tasks", t.Kind), env)...)
}

// ordered is the steps of an ORDER binding.
func (c *Core) ordered(t bindings.Type, reacts bool) []step {
	var out []step
	for _, h := range c.Hooks.Ordered(t) {
		out = append(out, step{hook: h, binding: string(t), reacts: reacts})
	}
	return out
}

// hookRequest builds a hook's request from the pinned inputs; the actor
// adds the logger.
func (c *Core) hookRequest(s step) (hookexec.Request, error) {
	p := c.run.pinned
	in := values.ModuleHookInput(p.Global, c.Scope.Snapshot(), p.Enabled)
	return hookrun.Request(s.hook, s.context, in, hookexec.PatchScope{RootKey: c.Names.ValuesKey}, nil)
}
