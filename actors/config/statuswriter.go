package config

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// statusWriteTimeout bounds one status write.
const statusWriteTimeout = 30 * time.Second

// statusWrite asks the status writer to write one object's status.
type statusWrite struct {
	Name   string
	Status moduleconfig.Status
}

// statusWriter writes ModuleConfigs' statuses off the config actor's
// mailbox; a failed write is logged (the next change writes again).
type statusWriter struct {
	w   StatusWriter
	log *slog.Logger
}

func newStatusWriter(w StatusWriter, log *slog.Logger) actor.Producer {
	return func() actor.Actor { return &statusWriter{w: w, log: log} }
}

// Receive implements actor.Actor.
func (s *statusWriter) Receive(ctx actor.Context) {
	msg, ok := ctx.Message().(statusWrite)
	if !ok || s.w == nil {
		return
	}
	ctx2, cancel := context.WithTimeout(context.Background(), statusWriteTimeout)
	defer cancel()
	err := s.w.WriteStatus(ctx2, msg.Name, msg.Status)
	if err != nil && !apierrors.IsNotFound(err) {
		s.log.Error("ModuleConfig status not written", "moduleConfig", msg.Name, "err", err)
	}
}
