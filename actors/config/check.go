package config

import (
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// A ConfigMap change is applied whole or not at all (spec/VALUES.md: "If
// validation fails on ConfigMap changes, error is logged and no new tasks
// are queued"). Before applying one, the config actor asks every owner
// whose section it changes whether it would take it (CheckConfig); only
// when none would reject it is the change applied. A newer version of the
// ConfigMap replaces a check still waiting: the ConfigMap's latest
// content is what counts.

// RejectedMessage is logged (at ERROR, with the owner and its reason) for
// each section that makes a ConfigMap change rejected.
const RejectedMessage = "ConfigMap change rejected: a section fails validation; nothing of the change is applied, the last good configuration stays"

// round is the check of one change.
type round struct {
	id       uint64
	snapshot Snapshot
	parsed   values.Sections
	waiting  map[string]bool // owners that have not answered
	rejected []messages.ConfigChecked
}

// answer takes an owner's answer to this round and tells whether every
// owner has answered.
func (r *round) answer(msg messages.ConfigChecked) (done bool) {
	if msg.Round != r.id || !r.waiting[msg.Owner] {
		return false
	}
	delete(r.waiting, msg.Owner)
	if msg.Err != "" {
		r.rejected = append(r.rejected, msg)
	}
	return len(r.waiting) == 0
}

// err is the owners' reasons for rejecting the change, one per owner.
func (r *round) err() error {
	errs := make([]error, len(r.rejected))
	for i, c := range r.rejected {
		errs[i] = fmt.Errorf("%s: %s", c.Owner, c.Err)
	}
	return errors.Join(errs...)
}

// ask is one owner to ask and the section it would take.
type ask struct {
	owner   string
	pid     *actor.PID
	section any
}

// asksOf are the owners whose section parsed changes against the
// configuration in force, and that have a section already (a module that
// has not had its first one gets it when the change is applied).
func (a *Actor) asksOf(parsed values.Sections) []ask {
	change := values.Diff(*a.good, parsed)
	var out []ask
	if change.Global && a.sections.global != nil {
		out = append(out, ask{owner: messages.OwnerGlobal, pid: a.sections.global, section: parsed.Global})
	}
	for _, key := range changedModules(change) {
		if pid := a.sections.handed[key]; pid != nil {
			out = append(out, ask{owner: a.sections.readers[key].Owner, pid: pid, section: parsed.Modules[key]})
		}
	}
	return out
}

// check asks the owners about a change of the configuration in force, or
// applies it at once when it changes no owner's section.
func (a *Actor) check(ctx actor.Context, s Snapshot, parsed values.Sections) {
	a.round = nil
	asks := a.asksOf(parsed)
	if len(asks) == 0 {
		a.apply(ctx, s, parsed)
		return
	}
	a.rounds++
	r := &round{id: a.rounds, snapshot: s, parsed: parsed, waiting: map[string]bool{}}
	for _, q := range asks {
		r.waiting[q.owner] = true
		ctx.Request(q.pid, messages.CheckConfig{Section: q.section, Round: r.id})
	}
	a.round = r
}

// handleConfigChecked applies the change once every owner would take its
// section, and rejects it whole when one would not.
func (a *Actor) handleConfigChecked(ctx actor.Context, msg messages.ConfigChecked) {
	r := a.round
	if r == nil || !r.answer(msg) {
		return
	}
	a.round = nil
	if len(r.rejected) > 0 {
		for _, c := range r.rejected {
			a.opts.Log.Error(RejectedMessage, "owner", c.Owner, "resourceVersion", r.snapshot.ResourceVersion, "err", c.Err)
		}
		a.invalid(ctx, r.snapshot, r.err())
		return
	}
	a.apply(ctx, r.snapshot, r.parsed)
}

// recheck asks again about the change still waiting, after the owners
// changed (one that stopped would never answer).
func (a *Actor) recheck(ctx actor.Context) {
	if r := a.round; r != nil {
		a.check(ctx, r.snapshot, r.parsed)
	}
}
