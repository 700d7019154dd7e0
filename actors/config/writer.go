package config

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/messages"
)

// Writer writes a config patch to the ConfigMap (Store.ApplyPatchOver):
// when the ConfigMap does not exist, it is created from absent with the
// patch applied. It returns what it wrote, resourceVersion included.
type Writer interface {
	ApplyPatchOver(ctx context.Context, p jsonpatch.Patch, absent map[string]string) (Written, error)
}

// writePatch is a config patch for the writer; Absent is the data to patch
// should the ConfigMap not exist (the last good data while it is missing).
// ReplyTo is the hook's owner, which the config actor answers.
type writePatch struct {
	Patch   messages.ConfigPatch
	Absent  map[string]string
	ReplyTo *actor.PID
}

// patchWritten is the writer's answer to the config actor: the reply for
// the hook's owner and what was written.
type patchWritten struct {
	Done    messages.ConfigPatchDone
	Written Written
	ReplyTo *actor.PID
}

// writeTimeout bounds one config patch write, conflict retries included.
const writeTimeout = 30 * time.Second

// writer is the config actor's child that does the blocking API calls, one
// patch at a time and in order, so that the config actor keeps taking
// watch reports meanwhile.
// It writes ModuleConfigs' statuses too (statuswriter.go).
type writer struct {
	w      Writer
	status StatusWriter
	log    *slog.Logger
}

func newWriter(w Writer, status StatusWriter, log *slog.Logger) actor.Producer {
	return func() actor.Actor { return &writer{w: w, status: status, log: log} }
}

// Receive implements actor.Actor.
func (w *writer) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case writePatch:
		done, written := w.write(msg.Patch, msg.Absent)
		done.Tag = msg.Patch.Tag
		ctx.Respond(patchWritten{Done: done, Written: written, ReplyTo: msg.ReplyTo})
	case statusWrite:
		w.writeStatus(msg)
	}
}

func (w *writer) write(msg messages.ConfigPatch, absent map[string]string) (messages.ConfigPatchDone, Written) {
	p, err := jsonpatch.DecodePatch(msg.Patch)
	if err != nil {
		return messages.ConfigPatchDone{Err: fmt.Sprintf("decode config patch of %s: %v", msg.Hook, err)}, Written{}
	}
	if len(p) == 0 {
		return messages.ConfigPatchDone{}, Written{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	written, err := w.w.ApplyPatchOver(ctx, p, absent)
	if err != nil {
		w.log.Error("write config patch", "hook", msg.Hook, "err", err)
		return messages.ConfigPatchDone{Err: fmt.Sprintf("write config patch of %s: %v", msg.Hook, err)}, Written{}
	}
	w.log.Info("config patch written", "hook", msg.Hook, "changed", written.Changed,
		"resourceVersion", written.ResourceVersion)
	return messages.ConfigPatchDone{Changed: written.Changed}, written
}
