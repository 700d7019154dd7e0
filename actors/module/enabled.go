package module

import (
	"encoding/json"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// handleCheckEnabled runs the enabled script, which sees the modules
// enabled before this one in global.enabledModules.
func (a *Actor) handleCheckEnabled(ctx actor.Context, msg messages.CheckEnabled, sender *actor.PID) {
	if a.startErr != nil {
		ctx.Send(sender, messages.EnabledChecked{Module: a.opts.Definition.Names.Name, Unavailable: true, Err: a.startErr.Error()})
		return
	}
	if !a.opts.Definition.HasEnabledScript {
		ctx.Send(sender, messages.EnabledChecked{Module: a.opts.Definition.Names.Name, Enabled: true})
		return
	}
	in := values.ModuleHookInput(a.opts.Board.Global(), a.core.Scope.Snapshot(), msg.EnabledBefore)
	vals, err := json.Marshal(in.Values)
	if err == nil {
		var cfg []byte
		if cfg, err = json.Marshal(in.ConfigValues); err == nil {
			a.checkBy = sender
			ctx.Request(a.worker, worker.EnabledJob{Dir: a.opts.Definition.Dir,
				Request: hookexec.EnabledRequest{Values: vals, ConfigValues: cfg, Logger: a.log}})
			return
		}
	}
	ctx.Send(sender, messages.EnabledChecked{Module: a.opts.Definition.Names.Name, Err: err.Error()})
}

func (a *Actor) handleEnabledResult(ctx actor.Context, r worker.EnabledResult) {
	reply := messages.EnabledChecked{Module: a.opts.Definition.Names.Name, Enabled: r.Enabled}
	if r.Err != nil {
		reply.Err = r.Err.Error()
	}
	if a.checkBy != nil {
		ctx.Send(a.checkBy, reply)
		a.checkBy = nil
	}
}
