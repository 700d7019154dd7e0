package config

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// keepWhileMissing decides what a deletion of the ConfigMap means, and
// tells whether the snapshot is to be ignored. Missing at start-up, it is
// an empty configuration (not ignored). Deleted after a configuration was
// read, it is taken as an accident: the last good configuration stays in
// force (the modules enabled only there are not uninstalled), which the
// log, the gauge and the board say until the ConfigMap exists again; its
// content then is applied as any change.
func (a *Actor) keepWhileMissing(s Snapshot) bool {
	if s.Exists {
		a.existed = true
	}
	switch {
	case a.good == nil:
		a.publishMissing(false, time.Time{})
	case !s.Exists && !a.existed:
		// Never created: the ModuleConfigs laid over an empty
		// configuration (layered again after they changed).
		return false
	case !s.Exists:
		if !a.missing {
			// Published before the log: a reader of the log finds the
			// metric and the module list saying so.
			a.missing = true
			a.publishMissing(true, a.opts.Clock.Now())
			a.opts.Log.Warn("ConfigMap deleted; keeping the last good configuration until it exists again",
				"configMap", a.opts.Name)
		}
		return true
	case a.missing:
		a.missing = false
		a.publishMissing(false, time.Time{})
		a.opts.Log.Warn("ConfigMap exists again; applying its content", "configMap", a.opts.Name,
			"resourceVersion", s.ResourceVersion)
	}
	return false
}

func (a *Actor) publishMissing(missing bool, since time.Time) {
	if a.opts.Missing != nil {
		v := 0.0
		if missing {
			v = 1
		}
		a.opts.Missing.Set(v)
	}
	if a.opts.Board == nil {
		return
	}
	st := board.ConfigState{ConfigMap: a.opts.Name, Missing: missing}
	if missing {
		st.Since = since.UTC().Format(time.RFC3339)
	}
	a.opts.Board.SetConfig(st)
}

// handleConfigPatch hands a hook's config patch to the writer. While the
// ConfigMap is missing, the patch goes onto the last good data: a hook
// writing a config value must not recreate it holding that value alone,
// which would disable every module enabled only in the lost content.
func (a *Actor) handleConfigPatch(ctx actor.Context, msg messages.ConfigPatch) {
	var absent map[string]string
	if a.missing {
		absent = a.goodData
		a.opts.Log.Warn("ConfigMap missing; a config patch recreates it from the last good configuration",
			"configMap", a.opts.Name, "hook", msg.Hook)
	}
	a.warnCoveredPatch(msg.Hook, msg.Patch)
	a.own.sent()
	ctx.Request(a.writer, writePatch{Patch: msg, Absent: absent, ReplyTo: ctx.Sender()})
}
