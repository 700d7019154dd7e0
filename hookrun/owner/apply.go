package owner

import (
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
)

// TokenDue is what the clock delivers to an owner when the held hook run
// of a queue key may go (executionMinInterval); the owner steps its core
// with HookRunEvent{Queue, hookrun.TokenArrived{}}.
type TokenDue struct{ Queue string }

// Shell carries out an Owner's effects in its owner's actor: what the
// global actor and a module do alike, written once. Its fields are the
// owner's parts the effects go to.
type Shell struct {
	// Name is the owner (messages.OwnerGlobal or messages.ModuleOwner);
	// Module is the module's name, empty for the global actor.
	Name, Module string
	Peers        hookrun.Siblings
	// Clock paces hooks with executionMinInterval; nil: not paced (the
	// core then asks for no timer).
	Clock supervision.Clock
	// Log is the owner's logger; a hook run's names its task.
	Log     *slog.Logger
	Board   *board.Board
	Metrics hookrun.Metrics
	// Worker is the worker child that runs a queue key's hooks.
	Worker func(ctx actor.Context, queue string) *actor.PID
	// Publish publishes the owner's scope, with what else the owner
	// publishes; nil when the owner's core turns the Owner's Publish into
	// an effect of its own (a module's carries its state too).
	Publish func(scope values.Scope)
}

// Apply carries out an owner effect; the owner's core keeps RunCommitted
// and RunFinished.
func (s Shell) Apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case CheckReply:
		ctx.Respond(e.Reply)
	case ConfigReply:
		ctx.Respond(e.Reply)
	case Publish:
		s.Publish(e.Scope)
	case Enqueue:
		ctx.Send(s.Peers.Queue, messages.Enqueue{Tasks: e.Tasks})
	case InRun:
		s.applyRun(ctx, e)
	case RunCommitted, RunFinished:
		panic(fmt.Sprintf("owner: the core keeps the owner's %T", e))
	default:
		panic(fmt.Sprintf("owner: owner effect %T has no case in Apply", e))
	}
}

// applyRun carries out a hook run's effect, tagged with its queue key;
// Committed and Finished never leave the Owner.
func (s Shell) applyRun(ctx actor.Context, in InRun) {
	switch e := in.Effect.(type) {
	case hookrun.GetSnapshots:
		ctx.Request(s.Peers.Kube, messages.GetSnapshots{Owner: s.Name, Hook: e.Hook, Tag: in.Queue})
	case hookrun.ArmTimer:
		supervision.Deliver(s.Clock, ctx.ActorSystem().Root, ctx.Self(), TokenDue{Queue: in.Queue}, e.Wait)
	case hookrun.RunHook:
		t := in.Task
		e.Request.Logger = s.Log.With("binding", e.Info.Binding, "queue", e.Info.Queue, "task", t.ID, "attempt", t.Attempts+1)
		ctx.Request(s.Worker(ctx, in.Queue), worker.HookJob{Request: e.Request, Binding: e.Info.Binding, Module: s.Module, Queue: e.Info.Queue})
	case hookrun.Ran:
		s.record(e)
	case hookrun.WriteConfigPatch:
		ctx.Request(s.Peers.Config, messages.ConfigPatch{Patch: e.Patch, Hook: e.Hook, Tag: in.Queue})
	case hookrun.Committed, hookrun.Finished:
		panic(fmt.Sprintf("owner: the Owner keeps the hook run's %T", e))
	default:
		panic(fmt.Sprintf("owner: hook run effect %T has no case in applyRun", e))
	}
}

// record counts a finished hook process on the board and in the metrics.
func (s Shell) record(e hookrun.Ran) {
	if s.Board != nil {
		s.Board.RecordHookRun(s.Name, e.Hook, e.Contexts, e.Err)
	}
	if s.Metrics != nil {
		s.Metrics.HookRun(hookrun.HookRun{Module: s.Module, Hook: e.Hook, Info: e.Info, Result: e.Result, Err: e.Err})
	}
}
