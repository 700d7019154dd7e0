package operator

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

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

func (l *lifecycle) handleOwnerReady(ctx actor.Context, msg messages.OwnerReady) {
	delete(l.boot.owners, msg.Owner)
	if msg.Err != "" {
		if msg.Owner == messages.OwnerGlobal {
			l.fatal(fmt.Errorf("global hooks: %s", msg.Err))
			return
		}
		l.failed[msg.Owner] = true
		l.opts.Log.Error("module failed to start; the other modules go on", "module", msg.Owner, "err", msg.Err)
	}
	if msg.Owner != messages.OwnerGlobal {
		return
	}
	l.maybeApplyConfig(ctx)
}

func (l *lifecycle) handleConfigInvalid(msg messages.ConfigInvalid) {
	if !l.boot.done && !l.boot.configRead {
		l.fatal(fmt.Errorf("ConfigMap: %s", msg.Err))
	}
}

// maybeApplyConfig hands the global actor its section once it is ready and
// the configuration has been read.
func (l *lifecycle) maybeApplyConfig(ctx actor.Context) {
	if l.boot.done || l.boot.globalAsked || !l.boot.configRead || len(l.boot.owners) > 0 {
		return
	}
	l.boot.globalAsked = true
	ctx.Request(l.children.PID(ChildGlobal), messages.ApplyConfig{Section: l.config.Global})
}

// bootApplied counts start-up replies; invalid configuration is fatal,
// except in a module that failed to start (it is left out anyway).
func (l *lifecycle) bootApplied(ctx actor.Context, msg messages.ConfigApplied) {
	if !l.boot.pending[msg.Owner] {
		return
	}
	delete(l.boot.pending, msg.Owner)
	if msg.Err != "" && !l.failed[msg.Owner] {
		l.boot.applyFailed = append(l.boot.applyFailed, msg.Err)
	}
	if len(l.boot.pending) > 0 {
		return
	}
	if len(l.boot.applyFailed) > 0 {
		l.fatal(fmt.Errorf("invalid configuration: %v", l.boot.applyFailed))
		return
	}
	l.boot.applied = true
	l.maybeQueueStartup(ctx)
}

// handleKubeSynced stops start-up when a global hook's kubernetes binding
// cannot be watched (an unknown kind) before the first converge is done.
func (l *lifecycle) handleKubeSynced(msg messages.KubeSynced) {
	if msg.Owner == messages.OwnerGlobal && msg.Err != "" && !l.opts.Board.Ready() {
		l.fatal(fmt.Errorf("global hooks' kubernetes bindings: %s", msg.Err))
	}
}

// maybeQueueStartup queues start-up once the configuration is applied
// (LIFECYCLE-STEPS 1–3): the global onStartup hooks, then the global
// hooks' bindings start and their Synchronization runs, then the first
// converge, beforeAll first.
func (l *lifecycle) maybeQueueStartup(ctx actor.Context) {
	if l.boot.done || !l.boot.applied {
		return
	}
	l.boot.done = true
	l.convergeStart = l.opts.Clock.Now()
	l.opts.Log.Info("start-up: running global onStartup hooks, then the global bindings' Synchronization, then converging")
	l.enqueue(ctx,
		messages.Task{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "onStartup", Reason: "start-up"},
		messages.Task{Kind: messages.TaskGlobalSync, Owner: messages.OwnerGlobal, Reason: "start-up"},
		messages.NewReloadAll("start-up"))
}
