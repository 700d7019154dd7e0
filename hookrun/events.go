package hookrun

import (
	"time"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/values"
)

// Env is what the owner reads for each Step: the clock's time, for the
// rate limit, and its scope as it is now, to which a result's patches are
// applied.
type Env struct {
	Now   time.Time
	Scope values.Scope
}

// Event is an input of a hook run's Step.
type Event interface{ hookRunEvent() }

// Events of a hook run.
type (
	// Begin starts a run of Hook. Request.BindingContext is nil for an
	// ORDER binding run (it is built here).
	Begin struct {
		Hook    Hook
		Request hookexec.Request
		Info    RunInfo
	}
	// SnapshotsRead answers GetSnapshots.
	SnapshotsRead struct{ Snapshots bctx.Snapshots }
	// TokenArrived: the timer of ArmTimer fired.
	TokenArrived struct{}
	// HookDone is the worker's result.
	HookDone struct {
		Result hookexec.Result
		Err    error
	}
	// ConfigWritten answers WriteConfigPatch (Err empty: written).
	ConfigWritten struct{ Err string }
)

func (Begin) hookRunEvent()         {}
func (SnapshotsRead) hookRunEvent() {}
func (TokenArrived) hookRunEvent()  {}
func (HookDone) hookRunEvent()      {}
func (ConfigWritten) hookRunEvent() {}

// Effect is an output of a hook run's Step, for the owner to carry out.
type Effect interface{ hookRunEffect() }

// Effects of a hook run.
type (
	// GetSnapshots asks the kube actor for the hook's snapshots.
	GetSnapshots struct{ Hook string }
	// ArmTimer delivers TokenArrived after Wait.
	ArmTimer struct{ Wait time.Duration }
	// RunHook sends the request to the worker.
	RunHook struct {
		Request hookexec.Request
		Info    RunInfo
	}
	// Ran records a finished hook process (board, metrics).
	Ran struct {
		Hook     string
		Info     RunInfo
		Contexts int
		Result   hookexec.Result
		Err      error
	}
	// Committed is the owner's scope with the hook's patches applied.
	Committed struct {
		Scope values.Scope
		// ValuesChanged: values or dynamic enabled flags changed.
		ValuesChanged bool
	}
	// WriteConfigPatch sends the hook's config patch to the config actor.
	WriteConfigPatch struct {
		Hook  string
		Patch []byte
	}
	// Finished ends the run; Err is nil on success.
	Finished struct{ Err error }
)

func (GetSnapshots) hookRunEffect()     {}
func (ArmTimer) hookRunEffect()         {}
func (RunHook) hookRunEffect()          {}
func (Ran) hookRunEffect()              {}
func (Committed) hookRunEffect()        {}
func (WriteConfigPatch) hookRunEffect() {}
func (Finished) hookRunEffect()         {}
