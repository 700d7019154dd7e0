package config

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// sections hands each module actor its ConfigMap section.
type sections struct {
	readers map[string]messages.SectionReader // by values key
	// handed are the readers that have had their first section, with the
	// actor that had it (a module actor started again gets it again).
	handed map[string]*actor.PID
	first  *actor.PID
	global *actor.PID // asked about a changed global section (check.go)
}

func (a *Actor) handleSectionReaders(ctx actor.Context, msg messages.SectionReaders) {
	a.sections.readers, a.sections.first, a.sections.global = msg.Modules, msg.FirstReport, msg.Global
	if a.sections.handed == nil {
		a.sections.handed = map[string]*actor.PID{}
	}
	for key, pid := range a.sections.handed {
		if r, ok := msg.Modules[key]; !ok || !r.PID.Equal(pid) {
			delete(a.sections.handed, key)
		}
	}
	a.handFirstSections(ctx)
	a.recheck(ctx)
	a.relayForNewTargets(ctx)
}

// handFirstSections gives the readers that have had none their section,
// once there is a good configuration; they answer FirstReport.
func (a *Actor) handFirstSections(ctx actor.Context) {
	if a.good == nil {
		return
	}
	keys := make([]string, 0, len(a.sections.readers))
	for key := range a.sections.readers {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		r := a.sections.readers[key]
		if a.sections.handed[key] != nil {
			continue
		}
		a.sections.handed[key] = r.PID
		ctx.RequestWithCustomSender(r.PID, a.applyConfigOf(key), a.sections.first)
	}
}

// handChangedSections gives the modules whose section or maintenance mode
// changed their new one; they answer the config actor. reloadFollows tells
// them the same change reloads all modules, so they queue no run.
func (a *Actor) handChangedSections(ctx actor.Context, keys []string, reloadFollows bool) {
	for _, key := range keys {
		if pid := a.sections.handed[key]; pid != nil {
			msg := a.applyConfigOf(key)
			msg.ReloadFollows = reloadFollows
			ctx.Request(pid, msg)
		}
	}
	a.handFirstSections(ctx)
}

// applyConfigOf is what the good configuration says to the module of key.
func (a *Actor) applyConfigOf(key string) messages.ApplyConfig {
	return messages.ApplyConfig{Section: a.good.Modules[key], Maintenance: a.good.Maintenance[key]}
}

// handleConfigApplied counts and logs a section its module rejected (the
// module keeps its previous one).
func (a *Actor) handleConfigApplied(msg messages.ConfigApplied) {
	if msg.Err == "" {
		return
	}
	if a.opts.Errors != nil {
		a.opts.Errors.Inc()
	}
	key := ""
	for k, r := range a.sections.readers {
		if r.Owner == msg.Owner {
			key = k
		}
	}
	a.opts.Log.Error("ConfigMap section rejected by its module; the module keeps its previous config",
		"module", msg.Owner, "key", key, "err", msg.Err)
}
