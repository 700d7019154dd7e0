package hookrun

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
)

// Stage is where a hook run is.
type Stage int

// The stages of a hook run, in order; a run may skip any but Running.
const (
	Idle Stage = iota
	// WaitingSnapshots: the kube actor is asked for the hook's snapshots.
	WaitingSnapshots
	// WaitingToken: the hook's rate limit holds the run until a timer.
	WaitingToken
	// Running: the worker runs the hook.
	Running
	// WritingConfig: the hook's config patch is being written.
	WritingConfig
)

// Run is the state machine of one hook run of an owner, and the token
// buckets that pace its hooks across runs. Step feeds it an event, with
// the Env the owner read, and returns the effects to carry out, in order;
// it does no I/O: the owners' cores have the same shape.
type Run struct {
	Stage Stage
	// WithKube: the owner has a kube actor to ask for snapshots.
	WithKube bool
	// Paced: the owner has a clock, so executionMinInterval applies.
	Paced    bool
	limits   Limits
	hook     Hook
	info     RunInfo
	req      hookexec.Request
	contexts int
}

// Step applies ev to the run.
func (r *Run) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Begin:
		return r.begin(e, env.Now)
	case SnapshotsRead:
		return r.snapshotsRead(e, env.Now)
	case TokenArrived:
		return r.tokenArrived()
	case HookDone:
		return r.hookDone(e, env.Scope)
	case ConfigWritten:
		return r.configWritten(e)
	default:
		panic(fmt.Sprintf("hookrun: event %T has no case in Step", ev))
	}
}

func (r *Run) begin(e Begin, now time.Time) []Effect {
	if r.Stage != Idle {
		return []Effect{Finished{Err: fmt.Errorf("hook %s: a run of %s is in progress", e.Hook.Name, r.hook.Name)}}
	}
	r.hook, r.info, r.req = e.Hook, e.Info, e.Request
	if r.wantsSnapshots() {
		r.Stage = WaitingSnapshots
		return []Effect{GetSnapshots{Hook: e.Hook.Name}}
	}
	if r.req.BindingContext == nil {
		r.req.BindingContext = OrderContext(r.hook, bindings.Type(r.info.Binding), nil)
	}
	return r.paced(now)
}

// wantsSnapshots: an ORDER run other than onStartup carries every
// kubernetes binding of a v1 hook; an event or schedule run, the bindings
// its includeSnapshotsFrom and group name, as they are when it starts.
func (r *Run) wantsSnapshots() bool {
	h := r.hook
	if !r.WithKube || h.Config == nil || h.Config.Version == bindings.V0 || len(h.Config.Kubernetes) == 0 {
		return false
	}
	if r.req.BindingContext == nil {
		return r.info.Binding != string(bindings.OnStartup)
	}
	return h.Config.NeedsSnapshots()
}

func (r *Run) snapshotsRead(e SnapshotsRead, now time.Time) []Effect {
	if r.Stage != WaitingSnapshots {
		return nil
	}
	if r.req.BindingContext == nil {
		r.req.BindingContext = OrderContext(r.hook, bindings.Type(r.info.Binding), e.Snapshots)
	} else if contexts, ok := RefillContexts(r.hook, r.req.BindingContext, e.Snapshots); ok {
		r.req.Contexts, r.req.BindingContext = contexts, nil
	}
	return r.paced(now)
}

// paced runs the hook now, or arms a timer for its token.
func (r *Run) paced(now time.Time) []Effect {
	if !r.Paced {
		return r.tokenArrived()
	}
	if r.limits == nil {
		r.limits = Limits{}
	}
	if wait := r.limits.Delay(r.hook, now); wait > 0 {
		r.Stage = WaitingToken
		return []Effect{ArmTimer{Wait: wait}}
	}
	return r.tokenArrived()
}

func (r *Run) tokenArrived() []Effect {
	if r.Stage == Running || r.Stage == WritingConfig || r.hook.Name == "" {
		return nil
	}
	r.Stage = Running
	r.contexts = countContexts(r.req)
	return []Effect{RunHook{Request: r.req, Info: r.info}}
}
