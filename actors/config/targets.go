package config

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// layTargets are the targets the objects are laid over now (the modules
// dirs as the operator last read them, when ModuleConfigOptions.TargetsNow
// is set), remembered for relayForNewTargets.
func (a *Actor) layTargets() map[string]moduleconfig.Target {
	a.objects.laidFor = a.targetsNow()
	return a.objects.laidFor
}

// targetsNow are the objects' targets now: TargetsNow's when set, else
// Targets.
func (a *Actor) targetsNow() map[string]moduleconfig.Target {
	if mc := a.opts.ModuleConfigs; mc.TargetsNow != nil {
		return mc.TargetsNow()
	}
	return a.opts.ModuleConfigs.Targets
}

// relayForNewTargets lays the objects over the ConfigMap again when one of
// them names a module that was found or gone since they were last laid (a
// module dir added or removed while the operator runs): the object of a
// module found now configures it from then on, as it would after a
// restart. The operator tells the readers (SectionReaders) after it has
// read the dirs and started the new module's actor, which then gets the
// section the objects make.
func (a *Actor) relayForNewTargets(ctx actor.Context) {
	mc := a.opts.ModuleConfigs
	if mc == nil || mc.TargetsNow == nil || !a.objects.synced || a.objects.cm == nil {
		return
	}
	if targetsMoved(a.objects.list, a.objects.laidFor, mc.TargetsNow()) {
		a.watchSecrets(ctx) // the Secrets its settingsFrom names, if any
		a.handleSnapshot(ctx, *a.objects.cm)
	}
}

// targetsMoved tells whether an object names a target of now that was
// none of before, or the other way round: laying them again changes what
// they configure. Other changes of the targets (a module found with no
// object) change nothing the objects make.
func targetsMoved(objects []moduleconfig.ModuleConfig, before, now map[string]moduleconfig.Target) bool {
	for _, obj := range objects {
		_, was := before[obj.Metadata.Name]
		if _, is := now[obj.Metadata.Name]; is != was {
			return true
		}
	}
	return false
}
