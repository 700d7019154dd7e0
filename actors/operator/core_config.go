package operator

import (
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

func (c *Core) configChanged(msg messages.ConfigChanged) []Effect {
	c.config = msg.Config
	var out []Effect
	if !c.boot.applied {
		c.boot.configRead = true
		out = c.maybeApplyConfig()
	}
	return append(out, c.carryOut(onConfigChanged(c.boot.applied, msg.Change))...)
}

func (c *Core) configApplied(msg messages.ConfigApplied, env Env) []Effect {
	if !c.boot.applied {
		return c.bootApplied(msg, env)
	}
	return c.carryOut(onConfigApplied(msg))
}

// carryOut turns the decision on a configuration change into effects.
func (c *Core) carryOut(e configEffects) []Effect {
	var out []Effect
	if e.countError {
		out = append(out, Count{Metric: MetricConfigErrors})
	}
	if e.applyGlobal {
		out = append(out, ApplyGlobalConfig{Section: c.config.Global})
	}
	if e.reloadAll != "" {
		out = append(out, Enqueue{Tasks: []messages.Task{messages.NewReloadAll(messages.ActivationReloadAll, e.reloadAll)}})
	}
	return out
}
