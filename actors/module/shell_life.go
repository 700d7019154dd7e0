package module

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// StartFailedMessage is the message of the ERROR record of each failed
// configuration of a module's hooks.
const StartFailedMessage = "module cannot start; it is left out until its hooks configure"

// RecoveredMessage is the message of the record of a module whose hooks
// configured after failing: it takes part in converges again.
const RecoveredMessage = "module hooks configured after failing; the module is back"

// reconfigureDue is delivered by the clock: time to configure the hooks
// again.
type reconfigureDue struct{}

// configureHooks asks the worker to configure the module's hooks (their
// --config, batch hooks' `hook config`) and read its crds/.
func (a *Actor) configureHooks(ctx actor.Context) {
	def := a.opts.Definition
	ctx.Request(a.worker, worker.ConfigureJob{Root: def.Dir, Scope: bindings.ScopeModule, Module: def.Names.Name,
		Slots: a.opts.ConfigureSlots, CRDFiles: def.CRDFiles})
}

// applyLife carries out the effects of the module's start (startup.go):
// its hooks' configuration and its retry, discovery, dropped tasks.
func (a *Actor) applyLife(ctx actor.Context, e lifeEffect) {
	switch e := e.(type) {
	case StartFailed:
		a.log.Error(StartFailedMessage, "err", e.Err)
		a.count(func(m Metrics) { m.ModuleFailed(a.name(), e.Err) })
	case Ready:
		ctx.Send(a.peers.Report, messages.OwnerReady{Owner: a.owner(), Err: e.Err})
	case ArmReconfigure:
		r := supervision.Retrier{Clock: a.opts.Clock, Policy: a.opts.Policy, Sender: ctx.ActorSystem().Root}
		a.reconfigure = r.Schedule(e.Attempt, ctx.Self(), reconfigureDue{})
		a.log.Info("hooks' configuration retried later", "in", a.reconfigure.Delay, "attempt", e.Attempt+1)
	case Reconfigure:
		a.configureHooks(ctx)
	case Recovered:
		a.log.Info(RecoveredMessage, "failures", e.Failures)
		a.count(func(m Metrics) { m.ModuleFailed(a.name(), nil) })
	case TaskDropped:
		a.log.Error("task dropped: the module failed to start", "task", e.Task.Kind, "err", e.Err)
		ctx.Send(e.To, messages.TaskDone{ID: e.Task.ID, Queue: e.Task.Queue})
	case RunEnabledScript:
		ctx.Request(a.worker, worker.EnabledJob{Dir: a.opts.Definition.Dir,
			Request: hookexec.EnabledRequest{Values: e.Values, ConfigValues: e.ConfigValues, Logger: a.log}})
	case EnabledReply:
		ctx.Send(e.To, e.Checked)
	case lifeState, taskAccepted:
		panic(fmt.Sprintf("module: the core keeps the start's %T", e))
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyLife", e))
	}
}

// maintenanceSet logs and counts a change of the maintenance state.
func (a *Actor) maintenanceSet(e MaintenanceSet) {
	if e.State == "" {
		a.log.Info("maintenance mode off: the module is Managed again; its release is reconciled at its next run")
	} else {
		a.log.Warn("maintenance mode on: the release is written once with its objects labelled, then left as it is; "+
			"absent objects are not restored; hooks run",
			"state", e.State)
	}
	if a.opts.Metrics != nil {
		a.opts.Metrics.Maintenance(a.name(), e.State)
	}
}
