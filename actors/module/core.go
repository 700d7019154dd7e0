package module

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/layout"
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

// CoreOptions is what a module's core is built from: its definition's
// facts and the operator's settings, and what the process gives it (a
// kube actor, a clock, a retry policy, a CRD applier, a webhook server).
type CoreOptions struct {
	Names values.Names
	// Scope is built from the values files; the ConfigMap section comes
	// with SectionChanged.
	Scope            values.Scope
	HasChart         bool
	HasEnabledScript bool
	// Release is the module.yaml's release settings (drift, readiness),
	// which override the operator's Drift and WaitReady(Timeout).
	Release layout.Release
	Drift   string
	// Remediation is the operator's; the module.yaml's wins key by key.
	Remediation      layout.Remediation
	WaitReady        bool
	WaitReadyTimeout time.Duration
	// WithKube: there is a kube actor (its bindings report their
	// Synchronization runs). Clock: there is a clock (hook runs are paced,
	// the release is checked every CheckInterval when it is > 0). Retries:
	// there is a retry policy for hooks that fail to configure (with the
	// clock). CRDs, Webhooks: there is a CRD applier, a webhook server.
	WithKube, Clock, Retries, CRDs, Webhooks bool
	CheckInterval                            time.Duration
}

// NewCore returns the core of a module that has started: its hooks are
// not configured yet (Configured follows).
func NewCore(o CoreOptions) *Core {
	wait, timeout := o.WaitReady, o.WaitReadyTimeout
	if o.Release.Wait != nil {
		wait = *o.Release.Wait
	}
	if o.Release.WaitTimeout > 0 {
		timeout = o.Release.WaitTimeout
	}
	every := o.CheckInterval
	if !o.Clock {
		every = 0
	}
	return &Core{names: o.Names, hasChart: o.HasChart, withKube: o.WithKube,
		own:   owner.New(owner.Options{Name: messages.ModuleOwner(o.Names.Name), Scope: o.Scope, WithKube: o.WithKube, Paced: o.Clock}),
		state: board.ModuleState{Name: o.Names.Name, Phase: board.PhaseStarting},
		wait:  readiness{on: wait, timeout: timeout}, remedy: o.Release.Remediation.Over(o.Remediation),
		life:  startup{name: o.Names.Name, enabledScript: o.HasEnabledScript, retries: o.Clock && o.Retries},
		check: checker{name: o.Names.Name, hasChart: o.HasChart, mode: driftMode(o.Release.Drift, o.Drift), every: every},
		serve: webhooks{canCRDs: o.CRDs, canServe: o.Webhooks},
		del:   deletion{name: o.Names.Name, hasChart: o.HasChart}}
}

// driftMode is a module's drift mode: its module.yaml's, else the
// operator's, else DriftReport.
func driftMode(module, operator string) string {
	if module != "" {
		return module
	}
	if operator == "" {
		return DriftReport
	}
	return operator
}

// Core is the module's decision state: pure, no I/O. The actor feeds it
// events with Step and carries out the effects it returns, in order. It
// runs the module's tasks itself (core_run.go) and composes four
// sub-machines, each with its own events, effects and Step: startup (its
// hooks' configuration and discovery), checker (the periodic check and the
// drift), webhooks (crds/ and webhook bindings) and deletion.
type Core struct {
	names    values.Names
	hasChart bool
	withKube bool
	hooks    hookrun.HookSet
	// own is what the module does as an owner, as the global actor does
	// (core_owner.go): its scope and its hook run, under the queue key "".
	own      *owner.Owner
	state    board.ModuleState
	watching bool
	// retiring: the operator disabled the module while its bindings were
	// on; they stay on for its delete (beforeDeleteHelm and
	// afterDeleteHelm see snapshots, UPSTREAM §3), their events queue
	// nothing, and the delete's end stops them.
	retiring bool
	wait     readiness
	remedy   layout.Remediation
	// deferred are the requests that wait for the hooks' configuration.
	deferred []Event
	life     startup
	check    checker
	serve    webhooks
	del      deletion
	tasks    hookrun.Tasks
	run      *moduleRun
}

// readiness is whether the helm step waits for the release's workloads,
// and for how long at most (0: chartrun's default).
type readiness struct {
	on      bool
	timeout time.Duration
}

// moduleRun is the running task: its phase, the hooks left in the phase,
// and the inputs pinned when it started.
type moduleRun struct {
	task          messages.Task
	phase         Phase
	left          []runStep
	pinned        Env
	valuesChanged bool
	started       time.Time
	helmStarted   time.Time
	// helmErr is the helm step's error while its release is remediated.
	helmErr error
}

// runStep is one hook to run in a phase; reacts: a values change by it queues
// another module run; allowFailure (a Synchronization run of a binding
// with allowFailure): its failure is logged and counted apart, and the
// run goes on with the next step.
type runStep struct {
	hook         hookrun.Hook
	binding      string
	context      []byte
	reacts       bool
	allowFailure bool
}

// State is the module's published state.
func (c *Core) State() board.ModuleState { return c.state }

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
func (c *Core) owner() string { return messages.ModuleOwner(c.names.Name) }

// Phase is the running task's phase.
func (c *Core) Phase() Phase {
	if c.run == nil {
		return Idle
	}
	return c.run.phase
}

// Step applies ev and returns the effects, each Publish carrying the
// state as it is once ev is taken. Events are handled by what they
// concern: the module's own life (stepLife), the running task (stepRun),
// the sub-machines', and its owner's events (stepOwner, core_owner.go).
func (c *Core) Step(ev Event, env Env) []Effect {
	return c.published(c.take(ev, env))
}

func (c *Core) take(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Configured, TaskAssigned, EnabledAsked, EnabledScriptDone, Removed, Disabled, ReconfigureDue:
		return c.stepLife(ev, env)
	case CheckEvent:
		return c.stepCheck(e.Event, env)
	case KubeSynced, HelmWaiting, HelmFinished, RemediationDone:
		return c.stepRun(ev, env)
	case WebhookEvent:
		return c.stepWebhooks(e.Event, env)
	case SectionChanged, OwnerEvent:
		return c.stepOwner(ev, env)
	case DeleteEvent:
		return c.stepDelete(e.Event, env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in Step", ev))
	}
}

// stepRun takes the events of the running task's hooks and helm step
// (core_run.go).
func (c *Core) stepRun(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case HelmFinished:
		c.state.Wait = nil // the wait ends with the step; published with its outcome
		return append(c.helmDrift(e.Result, env), c.helmFinished(e.Result, env)...)
	case KubeSynced:
		return c.kubeSynced(e.Runs, env)
	case HelmWaiting:
		return c.helmWaiting(e.NotReady, env)
	case RemediationDone:
		return c.remediationDone(e, env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepRun", ev))
	}
}

// published fills each Publish with the state, the values and the tasks
// as they are now; a module whose dir is gone publishes to the board no
// more.
func (c *Core) published(out []Effect) []Effect {
	for i, e := range out {
		if _, ok := e.(Publish); ok {
			out[i] = Publish{State: c.state, Values: c.scope().Snapshot(), Patches: hookrun.PatchesJSON(c.scope()),
				Waiting: c.Waiting(), Board: !c.life.removed}
		}
	}
	return out
}

// absorb takes a sub-machine's effects in order: take returns what each
// is for the core (its own effects, those it wraps, or what it does of
// those it keeps).
func absorb[F any](effects []F, take func(F) []Effect) []Effect {
	var out []Effect
	for _, e := range effects {
		out = append(out, take(e)...)
	}
	return out
}

// ordered is the steps of an ORDER binding.
func (c *Core) ordered(t bindings.Type, reacts bool) []runStep {
	var out []runStep
	for _, h := range c.hooks.Ordered(t) {
		out = append(out, runStep{hook: h, binding: string(t), reacts: reacts})
	}
	return out
}

// hookRequest builds a hook's request from the pinned inputs; the actor
// adds the logger.
func (c *Core) hookRequest(s runStep) (hookexec.Request, error) {
	p := c.run.pinned
	in := values.ModuleHookInput(p.Global, c.scope().Snapshot(), p.Enabled)
	return hookrun.Request(s.hook, s.context, in, hookexec.PatchScope{RootKey: c.names.ValuesKey}, nil)
}
