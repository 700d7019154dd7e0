package owner

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
)

// HookStep runs one hook for an owner actor, in three message turns: the
// worker runs the hook (HookResult), its patches are applied to a copy of
// the owner's scope, and a config values patch is written to the ConfigMap
// through the config actor (ConfigPatchDone). The owner commits the
// returned scope only when the step succeeded, so a failed step changes
// nothing and its retry starts from the same values.
type HookStep struct {
	Worker *actor.PID
	Config *actor.PID
	// Kube answers GetSnapshots for ORDER runs of hooks with kubernetes
	// bindings; nil leaves their snapshots out.
	Kube *actor.PID
	// Board, when set, counts every run of the step's hooks; Metrics, when
	// set, observes them.
	Board   *board.Board
	Metrics Metrics
	Owner   string
	Module  string
	// Tag marks this step's requests and replies (the queue it runs for,
	// when an owner runs one step per queue).
	Tag  string
	hook string
	run  RunInfo
	// waiting is a run that waits for its hook's snapshots.
	waiting *hookexec.Request
	// Clock paces hooks with executionMinInterval/executionBurst (nil: no
	// pacing); held is a run waiting for its token.
	Clock   supervision.Clock
	buckets map[string]*bucket
	held    *hookexec.Request
	current hookrun.Hook
	// contexts is how many binding contexts the running hook got.
	contexts int
	// applied waits for its config patch to be written; result is the
	// hook's, applied again when it is.
	applied *Applied
	result  hookexec.Result
}

// StepResult is a finished step.
type StepResult struct {
	Applied Applied
	Result  hookexec.Result
	Err     error
}

// Start sends the hook run to the worker. The snapshots a run's binding
// context carries are read from the kube actor just before it starts (one
// turn through it): an ORDER run other than onStartup carries every
// kubernetes binding of the hook; an event or schedule run, the bindings
// its includeSnapshotsFrom and group name, as they are now, not as they
// were when the run was queued.
func (s *HookStep) Start(ctx actor.Context, h hookrun.Hook, req hookexec.Request, run RunInfo) {
	s.hook, s.applied, s.run, s.waiting, s.current = h.Name, nil, run, nil, h
	if s.wantsSnapshots(h, req, run) {
		s.waiting = &req
		ctx.Request(s.Kube, messages.GetSnapshots{Owner: s.Owner, Hook: h.Name, Tag: s.Tag})
		return
	}
	if req.BindingContext == nil {
		req.BindingContext = OrderContext(h, bindings.Type(run.Binding), nil)
	}
	s.send(ctx, req)
}

func (s *HookStep) wantsSnapshots(h hookrun.Hook, req hookexec.Request, run RunInfo) bool {
	if s.Kube == nil || h.Config == nil || h.Config.Version == bindings.V0 || len(h.Config.Kubernetes) == 0 {
		return false
	}
	if req.BindingContext == nil {
		return run.Binding != string(bindings.OnStartup)
	}
	return h.Config.NeedsSnapshots()
}

// OnSnapshots starts the run that waited for its snapshots.
func (s *HookStep) OnSnapshots(ctx actor.Context, msg messages.HookSnapshots) {
	if s.waiting == nil {
		return
	}
	req := *s.waiting
	s.waiting = nil
	if req.BindingContext == nil {
		req.BindingContext = OrderContext(s.current, bindings.Type(s.run.Binding), msg.Snapshots)
	} else {
		req.BindingContext = RefillContexts(s.current, req.BindingContext, msg.Snapshots)
	}
	s.send(ctx, req)
}

// send runs the request now, or holds it for the hook's rate limit.
func (s *HookStep) send(ctx actor.Context, req hookexec.Request) {
	if s.Clock != nil {
		if wait := s.rateDelay(s.current, s.Clock.Now()); wait > 0 {
			s.hold(ctx, req, wait)
			return
		}
	}
	s.dispatch(ctx, req)
}

func (s *HookStep) dispatch(ctx actor.Context, req hookexec.Request) {
	s.contexts = countContexts(req.BindingContext)
	ctx.Request(s.Worker, worker.HookJob{Request: req, Binding: s.run.Binding, Module: s.Module, Queue: s.run.Queue})
}

// OnHookResult applies the result to scope. It returns done=false while a
// config patch is being written; ConfigPatchDone then finishes the step.
func (s *HookStep) OnHookResult(ctx actor.Context, scope values.Scope, r worker.HookResult) (StepResult, bool) {
	s.record(r.Result, r.Err)
	if r.Err != nil {
		return StepResult{Result: r.Result, Err: fmt.Errorf("hook %s: %w", r.Hook, r.Err)}, true
	}
	applied, err := Apply(scope, r.Hook, r.Result)
	if err != nil {
		return StepResult{Result: r.Result, Err: err}, true
	}
	if applied.ConfigPatch == nil {
		return StepResult{Applied: applied, Result: r.Result}, true
	}
	s.applied, s.result = &applied, r.Result
	ctx.Request(s.Config, messages.ConfigPatch{Patch: applied.ConfigPatch, Hook: r.Hook, Tag: s.Tag})
	return StepResult{}, false
}

// OnConfigPatchDone finishes a step that waited for its config patch. The
// result is applied again to the owner's scope as it is now: another step
// of the same owner may have changed it meanwhile.
func (s *HookStep) OnConfigPatchDone(scope values.Scope, done messages.ConfigPatchDone) StepResult {
	if s.applied == nil {
		return StepResult{Err: errors.New("config patch reply without a running hook step")}
	}
	s.applied = nil
	if done.Err != "" {
		return StepResult{Err: fmt.Errorf("hook %s: %s", s.hook, done.Err)}
	}
	applied, err := Apply(scope, s.hook, s.result)
	if err != nil {
		return StepResult{Err: err}
	}
	return StepResult{Applied: applied}
}

func (s *HookStep) record(res hookexec.Result, err error) {
	if s.Board != nil {
		s.Board.RecordHookRun(s.Owner, s.hook, s.contexts, err)
	}
	if s.Metrics != nil {
		s.Metrics.HookRun(HookRun{Module: s.Module, Hook: s.hook, Info: s.run, Result: res, Err: err})
	}
}

// countContexts counts the elements of a binding context array.
func countContexts(data []byte) int {
	var list []json.RawMessage
	if json.Unmarshal(data, &list) != nil {
		return 0
	}
	return len(list)
}

// Handle takes the step's own messages (the hook's result, its snapshots,
// its config patch written, its rate-limit wake-up). handled is false for
// any other message; done reports a finished step and its result.
// Messages with another step's tag are not handled.
func (s *HookStep) Handle(ctx actor.Context, scope values.Scope, msg any) (res StepResult, done, handled bool) {
	switch m := msg.(type) {
	case worker.HookResult:
		if s.Tag != "" && m.Queue != s.Tag {
			return StepResult{}, false, false
		}
		res, done = s.OnHookResult(ctx, scope, m)
		return res, done, true
	case messages.HookSnapshots:
		if m.Tag != s.Tag {
			return StepResult{}, false, false
		}
		s.OnSnapshots(ctx, m)
		return StepResult{}, false, true
	case messages.ConfigPatchDone:
		if m.Tag != s.Tag {
			return StepResult{}, false, false
		}
		return s.OnConfigPatchDone(scope, m), true, true
	case rateLimited:
		if m.tag != s.Tag {
			return StepResult{}, false, false
		}
		s.OnRateLimited(ctx)
		return StepResult{}, false, true
	}
	return StepResult{}, false, false
}
