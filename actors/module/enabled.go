package module

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
)

// runEnabledScript asks the worker to run the module's enabled script
// with the values the core encoded (Core.checkEnabled decides).
func (a *Actor) runEnabledScript(ctx actor.Context, e RunEnabledScript) {
	ctx.Request(a.worker, worker.EnabledJob{Dir: a.opts.Definition.Dir,
		Request: hookexec.EnabledRequest{Values: e.Values, ConfigValues: e.ConfigValues, Logger: a.log}})
}
