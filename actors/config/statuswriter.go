package config

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// statusWrite asks the writer child to write one ModuleConfig's status,
// off the config actor's mailbox.
type statusWrite struct {
	Name   string
	Status moduleconfig.Status
}

// writeStatus writes one status; a failed write is logged (the object's
// next change writes again), one of an object deleted meanwhile is not.
func (w *writer) writeStatus(msg statusWrite) {
	if w.status == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	err := w.status.WriteStatus(ctx, msg.Name, msg.Status)
	if err != nil && !apierrors.IsNotFound(err) {
		w.log.Error("ModuleConfig status not written", "moduleConfig", msg.Name, "err", err)
	}
}
