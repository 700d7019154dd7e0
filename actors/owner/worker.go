package owner

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
)

// Runner is what a worker needs of hookexec.Runner.
type Runner interface {
	Config(ctx context.Context, hook hookexec.Hook, scope bindings.Scope) (*bindings.Config, error)
	Run(ctx context.Context, req hookexec.Request) (hookexec.Result, error)
	RunEnabled(ctx context.Context, req hookexec.EnabledRequest) (hookexec.Result, error)
}

// HelmOutcome says what an upgrade did.
type HelmOutcome struct {
	// Upgraded is false when the release was up to date (skipped).
	Upgraded bool
	Revision int
	Reason   string
	// Destructive are the adoptions and clears the run did.
	Destructive []Destructive
}

// Releaser is what a module needs of chartrun.
type Releaser interface {
	Upgrade(ctx context.Context, module, chartDir string, values map[string]any) (HelmOutcome, error)
	Uninstall(ctx context.Context, module string) (Removal, error)
	// Absent lists the objects of the deployed release that are gone.
	Absent(ctx context.Context, module string) ([]string, error)
}

// Worker jobs and their results. They stay between an owner and its worker
// child, so they live here rather than in package messages.
type (
	// ConfigureJob finds the hooks under Root (the global hooks dir, or a
	// module dir whose hooks/ is searched) and runs each with --config.
	ConfigureJob struct {
		Root  string
		Scope bindings.Scope
		// Slots, when set, is taken for the duration of the job: it bounds
		// how many owners configure at once, so that a hundred modules'
		// --config runs do not starve start-up. Waiters are served in
		// arrival order, which is module order at start-up.
		Slots chan struct{}
	}
	ConfigureResult struct {
		Hooks HookSet
		Err   error
	}
	HookJob struct {
		Request hookexec.Request
		Binding string
		Tag     string
		// Module and Queue name the run for the RunWatch.
		Module string
		Queue  string
	}
	HookResult struct {
		Hook    string
		Binding string
		Tag     string
		Result  hookexec.Result
		Err     error
	}
	// EnabledJob runs the enabled script of the module in Dir, if it has
	// one (Request.Script is filled in); without one the module is enabled.
	EnabledJob struct {
		Dir     string
		Request hookexec.EnabledRequest
	}
	EnabledResult struct {
		Enabled bool
		Err     error
	}
	HelmJob struct {
		Module   string
		ChartDir string
		Values   map[string]any
	}
	HelmResult struct {
		Outcome HelmOutcome
		Err     error
	}
	DeleteJob    struct{ Module string }
	DeleteResult struct {
		Removal Removal
		Err     error
	}
	AbsentJob    struct{ Module string }
	AbsentResult struct {
		Objects []string
		Err     error
	}
)

// Worker runs an owner's blocking jobs one at a time and answers each to
// its sender. Jobs run under ctx, which the owner cancels when it stops: a
// busy worker does not see its own Stopping until the job returns.
type Worker struct {
	runner   Runner
	releaser Releaser
	ctx      context.Context
	watch    *RunWatch
}

// NewWorker returns the producer of a worker. Its hook runs are followed
// by watch (nil: not followed).
func NewWorker(ctx context.Context, runner Runner, releaser Releaser, watch *RunWatch) actor.Producer {
	return func() actor.Actor {
		return &Worker{runner: runner, releaser: releaser, ctx: ctx, watch: watch}
	}
}

// Receive implements actor.Actor.
func (w *Worker) Receive(ctx actor.Context) {
	switch job := ctx.Message().(type) {
	case ConfigureJob:
		ctx.Respond(w.configure(job))
	case HookJob:
		ctx.Respond(w.hook(job))
	case EnabledJob:
		ctx.Respond(w.enabled(job))
	case HelmJob:
		out, err := w.releaser.Upgrade(w.ctx, job.Module, job.ChartDir, job.Values)
		ctx.Respond(HelmResult{Outcome: out, Err: err})
	case DeleteJob:
		removal, err := w.releaser.Uninstall(w.ctx, job.Module)
		ctx.Respond(DeleteResult{Removal: removal, Err: err})
	case AbsentJob:
		objects, err := w.releaser.Absent(w.ctx, job.Module)
		ctx.Respond(AbsentResult{Objects: objects, Err: err})
	}
}

func (w *Worker) hook(job HookJob) HookResult {
	end := w.watch.Begin(RunLabels{Module: job.Module, Hook: job.Request.Hook.Name, Binding: job.Binding, Queue: job.Queue})
	defer end()
	res, err := w.runner.Run(w.ctx, job.Request)
	return HookResult{Hook: job.Request.Hook.Name, Binding: job.Binding, Tag: job.Tag, Result: res, Err: err}
}

func (w *Worker) configure(job ConfigureJob) ConfigureResult {
	if job.Root == "" {
		return ConfigureResult{}
	}
	if job.Slots != nil {
		select {
		case job.Slots <- struct{}{}:
			defer func() { <-job.Slots }()
		case <-w.ctx.Done():
			return ConfigureResult{Err: w.ctx.Err()}
		}
	}
	find := hookexec.DiscoverGlobalHooks
	if job.Scope == bindings.ScopeModule {
		find = hookexec.DiscoverModuleHooks
	}
	hooks, err := find(job.Root)
	if err != nil {
		return ConfigureResult{Err: fmt.Errorf("find hooks in %s: %w", job.Root, err)}
	}
	set := make(HookSet, 0, len(hooks))
	for _, h := range hooks {
		cfg, err := w.runner.Config(w.ctx, h, job.Scope)
		if err != nil {
			return ConfigureResult{Err: fmt.Errorf("configure hook %s: %w", h.Name, err)}
		}
		set = append(set, Hook{Hook: h, Config: cfg})
	}
	return ConfigureResult{Hooks: set}
}

func (w *Worker) enabled(job EnabledJob) EnabledResult {
	script, ok, err := hookexec.EnabledScript(job.Dir)
	if err != nil {
		return EnabledResult{Err: err}
	}
	if !ok {
		return EnabledResult{Enabled: true}
	}
	job.Request.Script = script
	res, err := w.runner.RunEnabled(w.ctx, job.Request)
	if err != nil {
		return EnabledResult{Err: fmt.Errorf("enabled script of %s: %w", job.Dir, err)}
	}
	return EnabledResult{Enabled: res.Enabled != nil && *res.Enabled}
}

// OrBackground returns ctx, or context.Background() when ctx is nil.
func OrBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// WorkerProps are the props of an owner's worker; with mailbox set (the
// inspector's) the worker, and the job it is running, show in the inspector.
func WorkerProps(producer actor.Producer, mailbox actor.MailboxProducer) *actor.Props {
	if mailbox == nil {
		return actor.PropsFromProducer(producer)
	}
	return actor.PropsFromProducer(producer, actor.WithMailbox(mailbox))
}
