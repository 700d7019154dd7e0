package operator

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// configEffects is what the lifecycle does about a configuration change
// or an owner's answer to its new section, decided by the pure functions
// below and carried out by the handlers.
type configEffects struct {
	applyGlobal bool   // hand the global actor its new section
	reloadAll   string // the reason of a ReloadAll, "" for none
	countError  bool   // a rejected section (config_values_errors_total)
}

// onConfigChanged: after start-up, a change of the global section goes to
// the global actor (whose answer decides), a change of enabled flags
// reloads all modules. A module's section is none of the operator's
// business: the config actor hands it to the module, which queues its own
// run. During start-up the configuration is only stored.
func onConfigChanged(booted bool, change values.Change) configEffects {
	if !booted {
		return configEffects{}
	}
	e := configEffects{applyGlobal: change.Global}
	if len(change.Enabled) > 0 {
		e.reloadAll = "enabled flags changed in the ConfigMap"
	}
	return e
}

// onConfigApplied (after start-up): the global values changed -> reload
// all; a rejected section is counted: the global one, and the first one of
// a module started after start-up (its later ones are the config actor's).
func onConfigApplied(msg messages.ConfigApplied) configEffects {
	switch {
	case msg.Err != "":
		return configEffects{countError: true}
	case msg.Changed && msg.Owner == messages.OwnerGlobal:
		return configEffects{reloadAll: "global section of the ConfigMap changed"}
	}
	return configEffects{}
}

func (l *lifecycle) handleConfigChanged(ctx actor.Context, msg messages.ConfigChanged) {
	l.config = msg.Config
	if !l.boot.applied {
		l.boot.configRead = true
		l.maybeApplyConfig(ctx)
	}
	l.carryOut(ctx, onConfigChanged(l.boot.applied, msg.Change))
}

func (l *lifecycle) handleConfigApplied(ctx actor.Context, msg messages.ConfigApplied) {
	if !l.boot.applied {
		l.bootApplied(ctx, msg)
		return
	}
	l.carryOut(ctx, onConfigApplied(msg))
}

func (l *lifecycle) carryOut(ctx actor.Context, e configEffects) {
	if e.countError && l.opts.ConfigErrors != nil {
		l.opts.ConfigErrors.Inc()
	}
	if e.applyGlobal {
		ctx.Request(l.children.PID(ChildGlobal), messages.ApplyConfig{Section: l.config.Global})
	}
	if e.reloadAll != "" {
		l.enqueue(ctx, messages.NewReloadAll(e.reloadAll))
	}
}

// tellReaders tells the config actor which module actors read which
// section; the first section each gets is answered to the operator.
func (l *lifecycle) tellReaders(ctx actor.Context) {
	readers := map[string]messages.SectionReader{}
	for _, d := range l.opts.Modules {
		owner := messages.ModuleOwner(d.Names.Name)
		if pid := l.children.PID(owner); pid != nil {
			readers[d.Names.ValuesKey] = messages.SectionReader{Owner: owner, PID: pid}
		}
	}
	if pid := l.children.PID(ChildConfig); pid != nil {
		ctx.Send(pid, messages.SectionReaders{Modules: readers, FirstReport: ctx.Self()})
	}
}

// started are the module owners whose actor runs.
func (l *lifecycle) started() []string {
	var out []string
	for _, d := range l.opts.Modules {
		if owner := messages.ModuleOwner(d.Names.Name); l.children.PID(owner) != nil {
			out = append(out, owner)
		}
	}
	return out
}
