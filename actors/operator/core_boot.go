package operator

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// boot tracks start-up: what the lifecycle still waits for.
type boot struct {
	done       bool
	configRead bool
	owners     map[string]bool // owners that have not reported ready
	// pending are the owners whose first section is not applied yet: the
	// global actor's (asked by the lifecycle once it is ready) and every
	// module's (handed by the config actor, answered here).
	pending     map[string]bool
	globalAsked bool
	applied     bool // every owner has its section
	applyFailed []string
}

// newBoot waits for the global actor only: module actors configure their
// hooks while the converge starts, and hold discovery and tasks until they
// have (100 modules' `--config` runs would otherwise delay every start-up).
// It waits for the first section of every module actor that started.
func newBoot(modules []string) boot {
	pending := map[string]bool{messages.OwnerGlobal: true}
	for _, m := range modules {
		pending[m] = true
	}
	return boot{owners: map[string]bool{messages.OwnerGlobal: true}, pending: pending}
}

// childrenSpawned: the root has spawned its children; start-up waits for
// the module owners among them, and the config actor is told who reads
// which section.
func (c *Core) childrenSpawned(e ChildrenSpawned) []Effect {
	c.boot = newBoot(e.Owners)
	return []Effect{TellReaders{Modules: c.modules}, c.publishUnseen()}
}

func (c *Core) ownerReady(msg messages.OwnerReady) []Effect {
	delete(c.boot.owners, msg.Owner)
	if msg.Err == "" && c.sit.failed[msg.Owner] != "" {
		return c.ownerRecovered(msg.Owner)
	}
	if msg.Err != "" {
		if msg.Owner == messages.OwnerGlobal {
			return c.fatal(fmt.Errorf("global hooks: %s", msg.Err))
		}
		c.sit.failed[msg.Owner] = failedToStart
		return []Effect{Log(step.At(slog.LevelError, "module failed to start; the other modules go on", "module", msg.Owner, "err", msg.Err))}
	}
	if msg.Owner != messages.OwnerGlobal {
		return nil
	}
	return c.maybeApplyConfig()
}

// ownerRecovered takes back a module whose hooks configured after failing
// (the module retries them): discovery no longer leaves it out, and after
// start-up a converge runs it.
func (c *Core) ownerRecovered(owner string) []Effect {
	delete(c.sit.failed, owner)
	out := []Effect{Log(step.At(slog.LevelInfo, "module configured after failing; it takes part in converges again", "module", owner))}
	if !c.boot.done {
		return out // the first converge is still to come, and includes it
	}
	return append(out, Enqueue{Tasks: []messages.Task{
		messages.NewReloadAll(messages.ActivationReloadAll, "module "+strings.TrimPrefix(owner, messages.ModuleOwner(""))+" configured after failing")}})
}

func (c *Core) configInvalid(msg messages.ConfigInvalid) []Effect {
	if !c.boot.done && !c.boot.configRead {
		return c.fatal(fmt.Errorf("ConfigMap: %s", msg.Err))
	}
	return nil
}

// maybeApplyConfig hands the global actor its section once it is ready and
// the configuration has been read.
func (c *Core) maybeApplyConfig() []Effect {
	if c.boot.done || c.boot.globalAsked || !c.boot.configRead || len(c.boot.owners) > 0 {
		return nil
	}
	c.boot.globalAsked = true
	return []Effect{ApplyGlobalConfig{Section: c.config.Global}}
}

// bootApplied counts start-up replies; invalid configuration is fatal,
// except in a module that failed to start (it is left out anyway).
func (c *Core) bootApplied(msg messages.ConfigApplied, env Env) []Effect {
	if !c.boot.pending[msg.Owner] {
		return nil
	}
	delete(c.boot.pending, msg.Owner)
	if msg.Err != "" && c.sit.failed[msg.Owner] == "" {
		c.boot.applyFailed = append(c.boot.applyFailed, msg.Err)
	}
	if len(c.boot.pending) > 0 {
		return nil
	}
	if len(c.boot.applyFailed) > 0 {
		return c.fatal(fmt.Errorf("invalid configuration: %v", c.boot.applyFailed))
	}
	c.boot.applied = true
	return c.queueStartup(env)
}

// kubeSynced stops start-up when a global hook's kubernetes binding
// cannot be watched (an unknown kind) before the first converge is done.
func (c *Core) kubeSynced(msg messages.KubeSynced) []Effect {
	if msg.Owner == messages.OwnerGlobal && msg.Err != "" && !c.ready {
		return c.fatal(fmt.Errorf("global hooks' kubernetes bindings: %s", msg.Err))
	}
	return nil
}

// queueStartup queues start-up once the configuration is applied
// (LIFECYCLE-STEPS 1–3): the global onStartup hooks, then the global
// hooks' bindings start and their Synchronization runs, then the first
// converge, beforeAll first.
func (c *Core) queueStartup(env Env) []Effect {
	if c.boot.done {
		return nil
	}
	c.boot.done = true
	c.timer.start = env.Now
	return []Effect{
		Log(step.At(slog.LevelInfo, "start-up: running global onStartup hooks, then the global bindings' Synchronization, then converging")),
		Enqueue{Tasks: []messages.Task{
			{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "onStartup", Reason: "start-up",
				Activation: messages.ActivationStartup},
			{Kind: messages.TaskGlobalSync, Owner: messages.OwnerGlobal, Reason: "start-up", Activation: messages.ActivationStartup},
			messages.NewReloadAll(messages.ActivationStartup, "start-up")}},
	}
}

// fatal stops start-up: logged every time, told once.
func (c *Core) fatal(err error) []Effect {
	out := []Effect{Log(step.At(slog.LevelError, "start-up failed", "err", err))}
	if !c.fatalTold {
		c.fatalTold = true
		out = append(out, Fatal{Err: err})
	}
	return out
}
