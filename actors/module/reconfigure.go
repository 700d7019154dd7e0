package module

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bindings"
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

// applyReconfigure carries out the retry of the hooks' configuration.
func (a *Actor) applyReconfigure(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case ArmReconfigure:
		if a.opts.Clock == nil || a.opts.Policy == nil {
			return // no retry: left out until the next start, as before
		}
		r := supervision.Retrier{Clock: a.opts.Clock, Policy: a.opts.Policy, Sender: ctx.ActorSystem().Root}
		a.reconfigure = r.Schedule(e.Attempt, ctx.Self(), reconfigureDue{})
		a.log.Info("hooks' configuration retried later", "in", a.reconfigure.Delay, "attempt", e.Attempt+1)
	case Reconfigure:
		a.configureHooks(ctx)
	case Recovered:
		a.log.Info(RecoveredMessage, "failures", e.Failures)
		a.count(func(m Metrics) { m.ModuleFailed(a.name(), nil) })
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyReconfigure", e))
	}
}
