package module

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Options configures a module actor.
type Options struct {
	Definition layout.Definition
	Runner     worker.Runner
	Releaser   worker.Releaser
	// Board is where the module publishes, and what it reads back
	// (published).
	Board   *board.Board
	Metrics Metrics
	Log     *slog.Logger
	// Siblings are the actors it reports to; unset ones are resolved
	// under its parent (the operator root).
	Siblings hookrun.Siblings
	// Work is the context hooks and helm run under; the process cancels it
	// when the shutdown grace period is over. Nil is context.Background().
	Work context.Context
	// Clock and CheckInterval drive the periodic check of an enabled
	// module's release (absent objects, drift); a zero interval disables it.
	Clock         supervision.Clock
	CheckInterval time.Duration
	// Policy gives the delay before hooks that failed to configure are
	// configured again (with Clock); nil: the module is left out until the
	// next start.
	Policy supervision.Policy
	// Drift is the operator's drift mode (DriftReport, DriftRestore,
	// DriftOff; "" is DriftReport); the module's module.yaml may override it.
	Drift string
	// WaitReady makes the helm step wait for the release's workloads, for
	// at most WaitReadyTimeout (0: chartrun's default); the module's
	// module.yaml (readiness) may override both.
	WaitReady        bool
	WaitReadyTimeout time.Duration
	// Remediation is what follows a failed release, for every module; the
	// module.yaml's remediation wins key by key.
	Remediation layout.Remediation
	// ConfigureSlots, when set, bounds how many modules run their hooks'
	// --config at once (shared by all module actors).
	ConfigureSlots chan struct{}
	// Inspector, when set, shows the module's phase as its behaviour in
	// the actor inspector.
	Inspector Reporter
	// WorkerMailbox, when set, is the worker child's mailbox (the
	// inspector's, so that the running hook shows with its age).
	WorkerMailbox actor.MailboxProducer
	// Watch follows the hook runs in progress; nil: not followed.
	Watch *worker.RunWatch
	// CRDs applies the module's crds/ before its first run since it was
	// enabled; nil: they are not applied.
	CRDs worker.CRDApplier
	// Webhooks serves and registers the module's webhook bindings while
	// it is enabled; nil: they are not served.
	Webhooks worker.Webhooks
}

// Reporter is the inspector's Report (inspect.Registry implements it).
type Reporter interface {
	Report(pid *actor.PID, behaviour, summary string)
	// ReportError marks the message being handled as failed with err in
	// the actor's flight recorder and last error (nil clears the latter).
	ReportError(pid *actor.PID, err error)
}

// Actor is a module actor.
type Actor struct {
	opts       Options
	log        *slog.Logger
	core       *Core
	worker     *actor.PID
	cancel     context.CancelFunc
	checkTimer supervision.Timer
	// reconfigure is the armed retry of the hooks' configuration.
	reconfigure supervision.Retry
	peers       hookrun.Siblings
	self        *actor.PID
	// read is what the actor reads of the published state (nil without a
	// board); it writes through opts.Board.
	read published
	// shell carries out the effects of the core's owner.Owner.
	shell owner.Shell
}

// New returns the producer of a module actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return func() actor.Actor {
		a := &Actor{opts: opts, log: opts.Log.With("module", opts.Definition.Names.Name)}
		if opts.Board != nil {
			a.read = opts.Board
		}
		return a
	}
}

// published is what a module actor reads of the published state (a part
// of board.Reader): the global values and the enabled modules, the inputs
// of every Step, and the other scopes' secrets, which its drift reports
// mask.
type published interface {
	Global() values.Snapshot
	EnabledModules() []string
	Secrets() mask.Secrets
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case worker.ConfigureResult:
		a.handleConfigured(ctx, msg)
	case messages.ApplyConfig:
		a.handleApplyConfig(ctx, msg)
	case worker.HookResult:
		a.stepRun(ctx, hookrun.HookDone{Result: msg.Result, Err: msg.Err})
	case messages.HookSnapshots:
		a.stepRun(ctx, hookrun.SnapshotsRead{Snapshots: msg.Snapshots})
	case messages.ConfigPatchDone:
		a.stepRun(ctx, hookrun.ConfigWritten{Err: msg.Err})
	case owner.TokenDue:
		a.stepRun(ctx, hookrun.TokenArrived{})
	case messages.HookEvent:
		a.step(ctx, OwnerEvent{Event: owner.HookEventArrived{Event: msg}})
	case messages.CheckEnabled:
		a.step(ctx, EnabledAsked{EnabledBefore: msg.EnabledBefore, From: ctx.Sender()})
	case worker.EnabledResult:
		a.step(ctx, EnabledScriptDone{Enabled: msg.Enabled, Err: msg.Err})
	case messages.ModuleDisabled:
		a.step(ctx, Disabled{})
	case reconfigureDue:
		a.step(ctx, ReconfigureDue{})
	case messages.ModuleRemoved:
		a.step(ctx, Removed{})
	case messages.CheckConfig:
		a.step(ctx, OwnerEvent{Event: owner.CheckAsked{Check: msg}})
	case messages.RunTask:
		a.step(ctx, TaskAssigned{Assigned: hookrun.Assigned{Task: msg.Task, Queue: ctx.Sender()}})
	case worker.HelmWaiting:
		a.step(ctx, HelmWaiting{NotReady: msg.NotReady})
	case worker.HelmResult:
		a.handleHelmResult(ctx, msg)
	case worker.RemediateResult:
		a.step(ctx, RemediationDone{Remedied: msg.Remedied, Err: msg.Err})
	case worker.ReleaseResult:
		a.step(ctx, DeleteEvent{Event: ReleaseChecked{Result: msg}})
	case worker.DeleteResult:
		a.step(ctx, DeleteEvent{Event: DeleteFinished{Result: msg}})
	case worker.CRDResult:
		a.step(ctx, WebhookEvent{Event: CRDsApplied{Err: msg.Err}})
	case worker.WebhookResult:
		a.handleWebhookResult(ctx, msg)
	case checkRelease:
		a.step(ctx, CheckEvent{Event: CheckDue{}})
	case worker.CheckResult:
		a.handleCheckResult(ctx, msg)
	case worker.RestoreResult:
		a.step(ctx, CheckEvent{Event: DriftRestored{Result: msg}})
	case messages.KubeSyncRuns:
		a.step(ctx, KubeSynced{Runs: msg})
	case *actor.Stopping:
		a.stopTimers()
	case *actor.Stopped:
		a.stopped()
	}
}

// stopped cancels the work context only now: the worker child has
// stopped, after finishing its job.
func (a *Actor) stopped() {
	if a.cancel != nil {
		a.cancel()
	}
}

func (a *Actor) owner() string { return messages.ModuleOwner(a.name()) }

func (a *Actor) name() string { return a.opts.Definition.Names.Name }

// handleStarted builds the core, with the scope from the values files,
// and configures the hooks; the ConfigMap section arrives with
// ApplyConfig.
func (a *Actor) handleStarted(ctx actor.Context) {
	def, o := a.opts.Definition, a.opts
	a.self = ctx.Self()
	workCtx, cancel := context.WithCancel(worker.OrBackground(o.Work))
	a.cancel = cancel
	a.worker = ctx.SpawnPrefix(worker.Props(worker.New(workCtx, o.Runner, o.Releaser, o.Watch), o.WorkerMailbox), "worker")
	a.peers = o.Siblings.Resolve(ctx.Parent())
	// The core turns the owner's Publish into its own: the shell has none.
	a.shell = owner.Shell{Name: a.owner(), Module: a.name(), Peers: a.peers, Clock: o.Clock, Log: a.log,
		Board: o.Board, Metrics: o.Metrics, Worker: func(actor.Context, string) *actor.PID { return a.worker }}
	// A validation error here is not final: required keys may come with the
	// ConfigMap section, which ApplyConfig validates.
	scope, _ := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own)
	a.core = NewCore(CoreOptions{Names: def.Names, Scope: scope, HasChart: def.HasChart,
		HasEnabledScript: def.HasEnabledScript, Release: def.Release, Drift: o.Drift, WaitReady: o.WaitReady,
		WaitReadyTimeout: o.WaitReadyTimeout, Remediation: o.Remediation, WithKube: a.peers.Kube != nil, Clock: o.Clock != nil,
		Retries: o.Policy != nil, CRDs: o.CRDs != nil, Webhooks: o.Webhooks != nil, CheckInterval: o.CheckInterval})
	// The password paths come with the definition: published once.
	if o.Board != nil {
		o.Board.SetPasswords(a.name(), def.Schemas.Passwords())
	}
	a.configureHooks(ctx)
}

// handleConfigured hands the core the configured hooks and crds/, or the
// error that leaves the module out.
func (a *Actor) handleConfigured(ctx actor.Context, msg worker.ConfigureResult) {
	if msg.Err != nil {
		a.step(ctx, Configured{Err: msg.Err})
		return
	}
	a.step(ctx, Configured{Hooks: msg.Hooks, CRDs: msg.CRDs})
}

// handleApplyConfig takes the module's ConfigMap section; a section the
// core rejects keeps the previous one.
func (a *Actor) handleApplyConfig(ctx actor.Context, msg messages.ApplyConfig) {
	a.step(ctx, SectionChanged{Section: msg.Section, Maintenance: msg.Maintenance, ReloadFollows: msg.ReloadFollows})
}

// forget removes the module's published state and metrics: its dir is
// gone.
func (a *Actor) forget(f Forget) {
	if f.StartFailed && a.opts.Metrics != nil {
		a.opts.Metrics.ModuleFailed(a.name(), nil)
	}
	if f.InMaintenance && a.opts.Metrics != nil {
		a.opts.Metrics.Maintenance(a.name(), "")
	}
	if a.opts.Metrics != nil {
		a.opts.Metrics.Stalled(a.name(), false) // a module gone is stalled no more
	}
	if a.opts.Board != nil {
		a.opts.Board.RemoveModule(a.name())
	}
	if f.Webhooks {
		a.opts.Webhooks.Forget(a.name())
	}
}

// publish shows the module in the inspector and, unless its dir is gone,
// on the board.
func (a *Actor) publish(p Publish) {
	s := p.State
	if a.opts.Inspector != nil && a.self != nil {
		a.opts.Inspector.Report(a.self, s.Phase, fmt.Sprintf("enabled=%t tasks=%d revision=%d waiting=%d",
			s.Enabled, s.Tasks, s.Revision, p.Waiting))
	}
	if a.opts.Board != nil && p.Board {
		a.opts.Board.SetModule(s)
		a.opts.Board.SetModuleValues(a.name(), p.Values)
		a.opts.Board.SetPatches(a.name(), p.Patches)
	}
}

// secrets are the values of the module's `format: password` settings, and
// of every other scope's as published: what its drift reports mask.
func (a *Actor) secrets(s values.Snapshot) mask.Secrets {
	paths := a.opts.Definition.Schemas.Passwords()
	out := paths.Secrets(s.Config).With(paths.Secrets(s.Values))
	if a.read != nil {
		out = out.With(a.read.Secrets())
	}
	return out
}

// now reads the injected clock (none in some tests: durations are then 0).
func (a *Actor) now() time.Time {
	if a.opts.Clock == nil {
		return time.Time{}
	}
	return a.opts.Clock.Now()
}

// stepRun feeds an event of the running hook run to the core.
func (a *Actor) stepRun(ctx actor.Context, ev hookrun.Event) {
	a.step(ctx, OwnerEvent{Event: owner.HookRunEvent{Event: ev}})
}
