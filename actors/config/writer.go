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

// Writer writes a config patch to the ConfigMap (Store.ApplyPatch).
type Writer interface {
	ApplyPatch(ctx context.Context, p jsonpatch.Patch) (changed bool, err error)
}

// writeTimeout bounds one config patch write, conflict retries included.
const writeTimeout = 30 * time.Second

// writer is the config actor's child that does the blocking API calls, one
// patch at a time and in order, so that the config actor keeps taking
// watch reports meanwhile.
type writer struct {
	w   Writer
	log *slog.Logger
}

func newWriter(w Writer, log *slog.Logger) actor.Producer {
	return func() actor.Actor { return &writer{w: w, log: log} }
}

// Receive implements actor.Actor.
func (w *writer) Receive(ctx actor.Context) {
	if msg, ok := ctx.Message().(messages.ConfigPatch); ok {
		done := w.write(msg)
		done.Tag = msg.Tag
		ctx.Respond(done)
	}
}

func (w *writer) write(msg messages.ConfigPatch) messages.ConfigPatchDone {
	p, err := jsonpatch.DecodePatch(msg.Patch)
	if err != nil {
		return messages.ConfigPatchDone{Err: fmt.Sprintf("decode config patch of %s: %v", msg.Hook, err)}
	}
	if len(p) == 0 {
		return messages.ConfigPatchDone{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	changed, err := w.w.ApplyPatch(ctx, p)
	if err != nil {
		w.log.Error("write config patch", "hook", msg.Hook, "err", err)
		return messages.ConfigPatchDone{Err: fmt.Sprintf("write config patch of %s: %v", msg.Hook, err)}
	}
	w.log.Info("config patch written", "hook", msg.Hook, "changed", changed)
	return messages.ConfigPatchDone{Changed: changed}
}
