package config

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// ModuleConfigSource reports every ModuleConfig (the whole set, after its
// first list and after each change) until ctx is done (Objects.Run).
type ModuleConfigSource interface {
	Run(ctx context.Context, onChange func([]moduleconfig.ModuleConfig)) error
}

// StatusWriter writes a ModuleConfig's status.
type StatusWriter interface {
	WriteStatus(ctx context.Context, name string, st moduleconfig.Status) error
}

// ModuleConfigMetrics are module_config_obsolete_version and
// module_config_invalid_total.
type ModuleConfigMetrics interface {
	SetObsolete(module string, version, latest int)
	ClearObsolete(module string)
	CountInvalid(module string)
}

// ModuleConfigOptions turn on the ModuleConfigs as a second source.
type ModuleConfigOptions struct {
	Source ModuleConfigSource
	// Targets are what the objects are validated against, by name (a
	// module's, and "global"); an object of another name is not this
	// operator's.
	Targets map[string]moduleconfig.Target
	// TargetsNow, when set, replaces Targets: the targets of the modules
	// dirs as the operator last read them, so that a module dir added
	// while it runs is configured by its object without a restart.
	TargetsNow func() map[string]moduleconfig.Target
	Status     StatusWriter
	Metrics    ModuleConfigMetrics
	// Secrets are the Secrets spec.settingsFrom names; nil: every
	// settingsFrom value is unknown (a warning, the settings checked and
	// applied without it).
	Secrets SecretSource
}

// objects is the actor's state of the ModuleConfig source.
type objects struct {
	list   []moduleconfig.ModuleConfig
	synced bool
	// cm is the ConfigMap's latest report, laid over again when the
	// objects change.
	cm      *Snapshot
	layers  layers
	written map[string]moduleconfig.Status
	// pending are the statuses waiting for statusDelay; flush is its
	// timer (statusdefer.go).
	pending  pendingStatuses
	flush    supervision.Timer
	obsolete map[string]obsolete
	// covered are the ConfigMap keys the accepted objects take over.
	covered map[string]string
	hidden  string
	warned  string
	// laidFor are the targets the objects were last laid over.
	laidFor map[string]moduleconfig.Target
	// secrets are the watched Secrets by name (secretvalues.go), under
	// watchCtx; secretPaths the paths published to the board by owner.
	secrets         secretValues
	watchCtx        context.Context
	hasSecretSource bool
	secretPaths     map[string]mask.Paths
}

// lookup is what the layering reads the settingsFrom values from: the
// watched Secrets, or nil (every value unknown) without a Secret source.
func (o *objects) lookup() moduleconfig.SecretValues {
	if !o.hasSecretSource {
		return nil
	}
	return o.secrets
}

// objectsReport carries the source's report into the mailbox: the
// objects, or (Err set) that the source stopped.
type objectsReport struct {
	List []moduleconfig.ModuleConfig
	Err  error
}

// startObjects starts the ModuleConfig source and the status writer.
func (a *Actor) startObjects(ctx actor.Context, watchCtx context.Context) {
	mc := a.opts.ModuleConfigs
	if mc == nil {
		return
	}
	a.objects = objects{written: map[string]moduleconfig.Status{}, obsolete: map[string]obsolete{},
		secrets: secretValues{}, watchCtx: watchCtx, hasSecretSource: mc.Secrets != nil}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	a.running.Add(1)
	go func() {
		defer a.running.Done()
		err := mc.Source.Run(watchCtx, func(l []moduleconfig.ModuleConfig) { root.Send(self, objectsReport{List: l}) })
		if err != nil && watchCtx.Err() == nil {
			root.Send(self, objectsReport{Err: err})
		}
	}()
}

// handleObjectsReport lays the objects over the ConfigMap's latest report
// (which waits for their first list: the first configuration holds both).
// A source that stopped (its CRD missing and not creatable) leaves the
// objects last read in force and must not keep the operator from its
// ConfigMap.
func (a *Actor) handleObjectsReport(ctx actor.Context, msg objectsReport) {
	if msg.Err != nil {
		a.opts.Log.Error("ModuleConfig watch stopped; the last ModuleConfigs read stay in force", "err", msg.Err)
	} else {
		a.objects.list = msg.List
	}
	a.objects.synced = true
	a.watchSecrets(ctx)
	if a.objects.cm != nil {
		a.handleSnapshot(ctx, *a.objects.cm)
	}
}

// layered is s with the ModuleConfigs laid over its data; ok is false
// while their first list has not arrived (s waits for it), and when a
// ConfigMap section does not convert (s is rejected, the last good
// configuration stays).
func (a *Actor) layered(ctx actor.Context, s Snapshot) (Snapshot, bool) {
	if a.opts.ModuleConfigs == nil {
		return s, true
	}
	a.objects.cm = &s
	if !a.objects.synced || !a.objects.secrets.allRead() {
		return s, false
	}
	res, err := a.objects.layers.Lay(s.Data, a.objects.list, a.layTargets(), a.objects.lookup(), a.opts.Clock.Now())
	if err != nil {
		a.round = nil // a newer version replaces the change being checked
		a.reject(ctx, s, err)
		return s, false
	}
	a.report(ctx, res)
	out := s
	out.Data, out.raw, out.layered = res.Data, s.Data, true
	return out, true
}

// report logs what the layering found, and writes statuses and metrics.
func (a *Actor) report(ctx actor.Context, res layered) {
	o := &a.objects
	if joined := strings.Join(res.Hidden, "; "); joined != o.hidden {
		o.hidden = joined
		for _, h := range res.Hidden {
			a.opts.Log.Warn("ConfigMap key ignored: a ModuleConfig configures its module", "reason", h)
		}
	}
	if joined := strings.Join(res.Warnings, "; "); joined != o.warned {
		o.warned = joined
		for _, w := range res.Warnings {
			a.opts.Log.Warn("ModuleConfig", "warning", w)
		}
	}
	o.covered = coveredKeys(o.layers.accepted)
	a.publishSecretPaths()
	a.writeStatuses(ctx, res.Status)
	a.setMetrics(res)
}

func (a *Actor) writeStatuses(ctx actor.Context, statuses map[string]moduleconfig.Status) {
	secrets := a.objects.secrets.masks()
	for name, st := range statuses {
		st = maskedStatus(st, secrets)
		if prev, ok := a.objects.written[name]; ok && sameStatus(prev, st) {
			continue
		}
		a.objects.written[name] = st
		a.deferStatus(ctx, name, st)
	}
	for name := range a.objects.written {
		if _, ok := statuses[name]; !ok {
			delete(a.objects.written, name)
			a.objects.pending.drop(name)
		}
	}
}

func (a *Actor) setMetrics(res layered) {
	m := a.opts.ModuleConfigs.Metrics
	if m == nil {
		return
	}
	for _, name := range res.NewlyInvalid {
		m.CountInvalid(name)
		a.opts.Log.Error("ModuleConfig not valid; its module keeps its last good values", "moduleConfig", name,
			"reason", a.objects.secrets.masks().Text(res.Status[name].Message))
	}
	now := map[string]obsolete{}
	for _, ob := range res.Obsolete {
		now[ob.Module] = ob
		if a.objects.obsolete[ob.Module] != ob {
			m.ClearObsolete(ob.Module)
			m.SetObsolete(ob.Module, ob.Version, ob.Latest)
		}
	}
	for name := range a.objects.obsolete {
		if _, ok := now[name]; !ok {
			m.ClearObsolete(name)
		}
	}
	a.objects.obsolete = now
}

// coveredKeys are the ConfigMap keys the accepted objects take over, with
// the object's name.
func coveredKeys(accepted map[string]moduleconfig.ModuleConfig) map[string]string {
	out := map[string]string{}
	for name := range accepted {
		if name == moduleconfig.GlobalName {
			out[values.GlobalKey] = name
			continue
		}
		if names, err := values.NamesOf(name); err == nil {
			out[names.ValuesKey], out[names.EnabledKey] = name, name
		}
	}
	return out
}

// warnCoveredPatch says that a hook's config patch goes to the ConfigMap
// keys a ModuleConfig hides: it is written, and ignored while the object
// exists.
func (a *Actor) warnCoveredPatch(hook string, patch []byte) {
	if len(a.objects.covered) == 0 {
		return
	}
	var ops []struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(patch, &ops) != nil {
		return
	}
	for _, op := range ops {
		key, _, _ := strings.Cut(strings.TrimPrefix(op.Path, "/"), "/")
		if name, ok := a.objects.covered[key]; ok {
			a.opts.Log.Warn("config patch written to the ConfigMap, where ModuleConfig "+name+
				" hides it: ignored while the ModuleConfig exists", "hook", hook, "key", key, "moduleConfig", name)
		}
	}
}
