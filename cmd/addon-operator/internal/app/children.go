package app

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"

	"k8s.io/client-go/kubernetes"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/actors/global"
	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/actors/schedule"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

// parts builds the root's children.
type parts struct {
	cfg           Config
	app           *App
	metrics       *metrics
	client        kubernetes.Interface
	common        values.Sections
	defs          []layout.Definition
	globalSchemas *schema.Set
	work          context.Context
	dynamic       dynamic.Interface
	mapper        meta.RESTMapper
	crds          *crds.Installer
	// slots bounds how many module actors configure their hooks at once.
	slots chan struct{}
	// watch follows the hook runs in progress (all owners').
	watch *worker.RunWatch
	// runner runs the owners' hooks (app.Runner, applying object patches).
	runner worker.Runner
	// webhooks serves and registers the owners' webhook bindings.
	webhooks *webhooks
}

// children are spawned in this order and stopped in the reverse one: the
// queue first (no new task starts), then the owners (each finishes the job
// it is running, within the grace period), the event sources, the config
// actor last (a finishing hook may still write a config patch). The event
// sources are spawned before the owners, which register their bindings.
func (p parts) children() []operator.Child {
	sys, log := p.app.System, p.cfg.Log
	store := config.NewStore(p.client, p.cfg.Namespace, p.cfg.ConfigMap)
	store.WatchHealth(kubewatch.Options{Log: log.With("actor", "config"), Down: p.metrics.watchesDown})
	out := []operator.Child{
		{Name: operator.ChildConfig, Props: sys.Props("config", config.New(config.Options{
			Source: store, Writer: store, Log: log.With("actor", "config"), Errors: p.metrics.configErrors,
			Name: p.cfg.Namespace + "/" + p.cfg.ConfigMap, Board: p.app.Board, Missing: p.metrics.configMapMissing,
			Clock: p.cfg.Clock, ModuleConfigs: p.moduleConfigs()}))},
		{Name: operator.ChildSchedule, Props: sys.Props("schedule", schedule.New(schedule.Options{
			Clock: p.cfg.Clock, Log: log.With("actor", "schedule")}))},
		{Name: operator.ChildKube, Props: sys.Props("kube", kube.New(kube.Options{
			Client: p.dynamic, Raw: p.client.CoreV1().RESTClient(), Mapper: p.mapper, Log: log.With("actor", "kube"), Errors: p.metrics.kubeError, Forbidden: p.metrics.kubeForbidden,
			WatchesDown: p.metrics.watchesDown, Board: p.app.Board}))},
		{Name: operator.ChildGlobal, Props: sys.Props("global", global.New(global.Options{
			HooksDir: p.cfg.GlobalHooksDir, Common: p.common, Schemas: schemasOrNil(p.globalSchemas),
			Runner: p.runner, Board: p.app.Board, Log: log.With("actor", "global"), Work: p.work,
			Metrics: p.metrics, Clock: p.cfg.Clock, WorkerMailbox: sys.Inspector.Mailbox("worker"), Watch: p.watch,
			Webhooks: p.webhooks}))},
	}
	for _, d := range p.defs {
		out = append(out, operator.Child{Name: operator.ModuleChild(d.Names.Name), Props: p.moduleProps(d)})
	}
	return append(out, operator.Child{Name: operator.ChildQueue, Props: sys.Props("queue", queue.New(queue.Options{
		Clock: p.cfg.Clock, Policy: p.cfg.Policy, Log: log.With("actor", "queue"),
		Publish: p.publishQueues, Dropped: p.metrics.taskDropped, Queues: parallelQueues(p.cfg.ParallelModuleRuns),
		ContextBound: noLimit(p.cfg.Hooks.QueuedContextBytes)}))})
}

// moduleProps makes a module actor, at start-up or when its dir appears.
func (p parts) moduleProps(d layout.Definition) *actor.Props {
	sys := p.app.System
	return sys.Props("module", module.New(module.Options{Definition: d, Runner: p.runner, Releaser: p.cfg.Helm,
		Board: p.app.Board, Log: p.cfg.Log, Clock: p.cfg.Clock, CheckInterval: p.cfg.CheckInterval, Policy: p.cfg.Policy, Drift: p.cfg.Drift, Work: p.work,
		WaitReady: p.cfg.WaitReady, WaitReadyTimeout: p.cfg.WaitReadyTimeout, Remediation: p.cfg.Remediation,
		ConfigureSlots: p.slots, Metrics: p.metrics, Inspector: sys.Inspector,
		WorkerMailbox: sys.Inspector.Mailbox("worker"), Watch: p.watch, CRDs: p.crds,
		Webhooks: p.webhooks}))
}

// scan reads the modules dirs again, with the start-up's common values;
// the ModuleConfig webhook reviews against what it read.
func (p parts) scan() ([]layout.Definition, []error) {
	defs, errs := layout.ScanWith(p.cfg.ModulesDirs, p.common, p.cfg.scanOptions())
	p.app.mcWebhook.refresh(defs)
	return defs, errs
}

func (p parts) publishQueues(s messages.QueueSnapshot) {
	// Metrics first: whoever sees the board's queues sees the metrics of
	// that snapshot.
	p.metrics.queues(s)
	p.app.Board.SetQueues(s)
}

// schemasOrNil keeps a nil *schema.Set a nil interface.
func schemasOrNil(s *schema.Set) values.Schemas {
	if s == nil {
		return nil
	}
	return s
}

// parallelQueues are the queues of ParallelModuleRun's module runs, there
// from the start so that /queue and the metrics show them (none when
// module runs go one by one).
func parallelQueues(n int) []string {
	if n < 2 {
		return nil
	}
	out := make([]string, n)
	for k := range n {
		out[k] = messages.ParallelQueue(k)
	}
	return out
}
