package worker

import (
	"context"
	"time"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Runner is what a worker needs of hookexec.Runner.
type Runner interface {
	DiscoverHooks(ctx context.Context, root string, owner hookexec.Owner) ([]hookexec.Hook, error)
	Config(ctx context.Context, hook hookexec.Hook, scope bindings.Scope) (*bindings.Config, error)
	Run(ctx context.Context, req hookexec.Request) (hookexec.Result, error)
	RunEnabled(ctx context.Context, req hookexec.EnabledRequest) (hookexec.Result, error)
}

// HelmOutcome says what an upgrade did.
type HelmOutcome struct {
	// Upgraded is false when the release was up to date (skipped).
	Upgraded bool
	// Action is chartrun's: "installed", "upgraded" or "skipped".
	Action   string
	Revision int
	Reason   string
	// Destructive are the adoptions and clears the run did.
	Destructive []Destructive
	// Drift, for a skipped run with drift checks on, are the release's
	// objects that do not hold what its manifest sets.
	Drift []messages.DriftedObject
	// Wait says how the wait for the release's workloads ended, when the
	// job asked for one (also when it failed the run).
	Wait *WaitOutcome
}

// WaitOutcome is how a wait for a release's workloads ended: Outcome is
// "ready", "timeout", "failed" or "cancelled".
type WaitOutcome struct {
	Outcome string
	Took    time.Duration
}

// HelmWaiting is sent by the worker to the sender of a HelmJob while the
// run waits for the release's workloads: the objects not ready yet, as
// "Deployment ns/web: 1/3 available".
type HelmWaiting struct {
	NotReady []string
}

// ReleaseCheck is what a periodic check of a release found.
type ReleaseCheck struct {
	// Absent are the objects that are gone.
	Absent []string
	// Drift are the objects that differ from the manifest.
	Drift []messages.DriftedObject
}

// Releaser is what a module needs of chartrun.
type Releaser interface {
	Upgrade(ctx context.Context, job HelmJob) (HelmOutcome, error)
	Uninstall(ctx context.Context, module string) (Removal, error)
	// Check looks at the objects of the deployed release: which are gone
	// and which drifted from the manifest.
	Check(ctx context.Context, job CheckJob) (ReleaseCheck, error)
	// Restore puts the given fields of the drifted objects back to the
	// manifest's values; it returns the objects restored.
	Restore(ctx context.Context, module string, drift []messages.DriftedObject) ([]string, error)
	// Exists tells whether the module's release has a revision.
	Exists(ctx context.Context, module string) (bool, error)
	// Remediate follows a failed upgrade as the job asks.
	Remediate(ctx context.Context, job RemediateJob) (Remedied, error)
}

// Jobs and their results. They stay between an owner and its worker
// child, so they live here rather than in package messages.
type (
	// ConfigureJob finds the hooks under Root (the global hooks dir, or a
	// module dir whose hooks/ is searched) and runs each with --config, or
	// expands a batch hook executable into its nested hooks.
	ConfigureJob struct {
		Root  string
		Scope bindings.Scope
		// Module names the module (empty for the global scope): its batch
		// hooks get it as MODULE_NAME.
		Module string
		// Slots, when set, is taken for the duration of the job: it bounds
		// how many owners configure at once, so that a hundred modules'
		// --config runs do not starve start-up. Waiters are served in
		// arrival order, which is module order at start-up.
		Slots chan struct{}
		// CRDFiles are a module's crds/ files, read and parsed with its
		// hooks.
		CRDFiles []string
	}
	ConfigureResult struct {
		Hooks hookrun.HookSet
		CRDs  []crds.CRD
		Err   error
	}
	HookJob struct {
		Request hookexec.Request
		Binding string
		// Module and Queue name the run (for the RunWatch); the result
		// carries Queue back, so that an owner running one hook per queue
		// knows whose it is.
		Module string
		Queue  string
	}
	HookResult struct {
		Hook    string
		Binding string
		Queue   string
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
	// HelmJob is the upgrade of the module's release (Release is the
	// module's name). Its Progress is filled in by the worker: it tells
	// the job's sender (HelmWaiting) what the wait is waiting for.
	// Secrets are masked wherever the run's drift report shows them (never
	// handed to helm).
	HelmJob struct {
		chartrun.Request
		Secrets mask.Secrets
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
	// ReleaseJob asks whether the module's release exists (the
	// beforeDeleteHelm hooks of a module delete run only then).
	ReleaseJob    struct{ Module string }
	ReleaseResult struct {
		Exists bool
		Err    error
	}
	// CheckJob is the periodic check of a module's release.
	CheckJob struct {
		Module string
		// Drift asks for the drift too, not only the absent objects.
		Drift bool
		// Secrets are masked wherever the drift report shows them.
		Secrets mask.Secrets
	}
	CheckResult struct {
		Check ReleaseCheck
		Err   error
	}
	// RestoreJob puts drifted fields back.
	RestoreJob struct {
		Module string
		Drift  []messages.DriftedObject
	}
	RestoreResult struct {
		Drift    []messages.DriftedObject // as asked
		Restored []string
		Err      error
	}
)
