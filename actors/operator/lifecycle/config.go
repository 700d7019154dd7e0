package lifecycle

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// handleConfigChanged stores the new configuration. During start-up that is
// all; afterwards the changed sections go to their owners (whose answers
// decide the reactions), and a change of enabled flags reloads all modules.
func (b *brain) handleConfigChanged(ctx actor.Context, msg messages.ConfigChanged) {
	b.config = msg.Config
	if !b.boot.applied {
		b.boot.configRead = true
		b.maybeApplyConfig(ctx)
		return
	}
	if msg.Change.Global {
		ctx.Request(b.children.PID(messages.OwnerGlobal), messages.ApplyConfig{Section: msg.Config.Global})
	}
	for _, key := range msg.Change.Modules {
		if owner, ok := b.ownerOfKey(key); ok && !b.failed[owner] {
			ctx.Request(b.children.PID(owner), messages.ApplyConfig{Section: msg.Config.Modules[key]})
		}
	}
	if len(msg.Change.Enabled) > 0 {
		b.enqueue(ctx, messages.NewReloadAll("enabled flags changed in the ConfigMap"))
	}
}

func (b *brain) ownerOfKey(key string) (string, bool) {
	for _, d := range b.opts.Modules {
		if d.Names.ValuesKey == key {
			return messages.ModuleOwner(d.Names.Name), true
		}
	}
	return "", false
}

// handleConfigApplied reacts to an owner's new section: global values
// changed -> reload all; an enabled module's values changed -> its run.
func (b *brain) handleConfigApplied(ctx actor.Context, msg messages.ConfigApplied) {
	if !b.boot.applied {
		b.bootApplied(ctx, msg)
		return
	}
	if msg.Err != "" {
		if b.opts.ConfigErrors != nil {
			b.opts.ConfigErrors.Inc()
		}
		return
	}
	if !msg.Changed {
		return
	}
	if msg.Owner == messages.OwnerGlobal {
		b.enqueue(ctx, messages.NewReloadAll("global section of the ConfigMap changed"))
		return
	}
	for _, d := range b.opts.Modules {
		if messages.ModuleOwner(d.Names.Name) == msg.Owner && b.enabled[d.Names.Name] {
			b.enqueue(ctx, messages.NewModuleRun(d.Names.Name, "module section of the ConfigMap changed"))
		}
	}
}
