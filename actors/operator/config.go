package operator

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// handleConfigChanged stores the new configuration. During start-up that is
// all; afterwards a change of the global section goes to the global actor
// (whose answer decides), and a change of enabled flags reloads all
// modules. A module's section is none of the operator's business: the
// config actor hands it to the module, which queues its own run.
func (b *lifecycle) handleConfigChanged(ctx actor.Context, msg messages.ConfigChanged) {
	b.config = msg.Config
	if !b.boot.applied {
		b.boot.configRead = true
		b.maybeApplyConfig(ctx)
		return
	}
	if msg.Change.Global {
		ctx.Request(b.children.PID(ChildGlobal), messages.ApplyConfig{Section: msg.Config.Global})
	}
	if len(msg.Change.Enabled) > 0 {
		b.enqueue(ctx, messages.NewReloadAll("enabled flags changed in the ConfigMap"))
	}
}

// handleConfigApplied reacts to the global actor's new section: its values
// changed -> reload all. A section rejected is counted: the global one,
// and the first one of a module started after start-up.
func (b *lifecycle) handleConfigApplied(ctx actor.Context, msg messages.ConfigApplied) {
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
	if msg.Changed && msg.Owner == messages.OwnerGlobal {
		b.enqueue(ctx, messages.NewReloadAll("global section of the ConfigMap changed"))
	}
}

// tellReaders tells the config actor which module actors read which
// section; the first section each gets is answered to the operator.
func (b *lifecycle) tellReaders(ctx actor.Context) {
	readers := map[string]messages.SectionReader{}
	for _, d := range b.opts.Modules {
		owner := messages.ModuleOwner(d.Names.Name)
		if pid := b.children.PID(owner); pid != nil {
			readers[d.Names.ValuesKey] = messages.SectionReader{Owner: owner, PID: pid}
		}
	}
	if pid := b.children.PID(ChildConfig); pid != nil {
		ctx.Send(pid, messages.SectionReaders{Modules: readers, FirstReport: ctx.Self()})
	}
}

// started are the module owners whose actor runs.
func (b *lifecycle) started() []string {
	var out []string
	for _, d := range b.opts.Modules {
		if owner := messages.ModuleOwner(d.Names.Name); b.children.PID(owner) != nil {
			out = append(out, owner)
		}
	}
	return out
}
