package app

import (
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// objectPatchRunner wraps runner so that hook runs apply their object
// patches through a client of their own, counted in
// object_patch_operations_total.
func objectPatchRunner(cfg Config, mapper meta.RESTMapper, runner worker.Runner, reg *prometheus.Registry,
	m *metrics) (worker.Runner, error) {
	rc := rest.CopyConfig(cfg.Rest)
	if cfg.ObjectPatcher.QPS != 0 {
		rc.QPS = cfg.ObjectPatcher.QPS
	}
	if cfg.ObjectPatcher.Burst != 0 {
		rc.Burst = cfg.ObjectPatcher.Burst
	}
	rc.Timeout = cfg.ObjectPatcher.Timeout
	client, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, fmt.Errorf("object patcher's kubernetes client: %w", err)
	}
	ops := prometheus.NewCounterVec(prometheus.CounterOpts{Name: m.prefix + "object_patch_operations_total",
		Help: "Object patch operations of hooks ($KUBERNETES_PATCH_PATH) by owner (module or global), operation and outcome (applied, failed)."},
		[]string{"owner", "operation", "outcome"})
	m.register(reg, ops)
	applier := objectpatch.NewApplier(objectpatch.Options{Client: client, Mapper: mapper,
		Log: cfg.Log.With(slog.String("component", "object-patcher")),
		Observe: func(owner string, op objectpatch.Kind, outcome string) {
			ops.WithLabelValues(owner, string(op), outcome).Inc()
		}})
	return worker.WithObjectPatches(runner, applier), nil
}
