package messages

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/values"
)

// ConfigChanged is sent by the config actor when the parsed content of the
// ConfigMap changed (never for a change of formatting only).
type ConfigChanged struct {
	// Config is the whole new configuration; it is never mutated.
	Config values.Sections
	// Change says which parts differ from the previous good configuration.
	Change values.Change
	// Initial marks the first good configuration the config actor has read.
	Initial         bool
	ResourceVersion string
}

// ConfigInvalid is sent by the config actor when the ConfigMap cannot be
// parsed. The last good configuration stays in force; with Initial set
// there is none (the operator stops at start-up, as spec/VALUES.md says).
type ConfigInvalid struct {
	Err             string
	Initial         bool
	ResourceVersion string
}

// ConfigPatch asks the config actor to write a hook's config values patch
// (JSON patch, RFC 6902) to the ConfigMap. The reply is ConfigPatchDone.
type ConfigPatch struct {
	Patch []byte
	// Hook names the hook whose patch this is, for logs.
	Hook string
	// Tag is echoed in the reply, so that an owner running several hooks
	// at once (one per queue) knows whose patch was written.
	Tag string
}

// ConfigPatchDone replies to ConfigPatch.
type ConfigPatchDone struct {
	Changed bool
	Err     string
	Tag     string
}

// ApplyConfig gives an owner (global or module actor) its ConfigMap section:
// a map, or for a module a list ([]any) too; Section nil means the ConfigMap
// has none. The reply is ConfigApplied. The operator sends the global
// section; the config actor sends each module its own (see
// SectionReaders), and a module whose values it changes queues its own
// run when it is enabled.
type ApplyConfig struct {
	Section any
	// Maintenance is set for a module whose ConfigMap puts it in
	// maintenance mode ("xMaintenance: NoResourceReconciliation"): its hooks
	// run, helm and the absent-resources healing do not.
	Maintenance bool
	// ReloadFollows: the same ConfigMap change also changed the global
	// section or an enabled flag, so the operator reloads all modules,
	// which runs this one with its new section (spec/VALUES.md: a global
	// change reloads all, a change of the module section alone runs the
	// module). The module takes its section and queues no run of its own.
	ReloadFollows bool
}

// ConfigApplied answers ApplyConfig. Err is set when the section failed
// validation; the owner's previous config stays in force.
type ConfigApplied struct {
	Owner   string
	Changed bool
	Err     string
}

// SectionReaders tells the config actor which module actor reads which
// ConfigMap section, by values key. The operator sends it at start-up and
// whenever a module actor starts or stops. The config actor hands a module
// its section (ApplyConfig) once it has a good configuration, with
// FirstReport as the sender so that the module's ConfigApplied goes there
// (the operator waits for them at start-up), and afterwards whenever the
// section changes, answered to the config actor itself.
type SectionReaders struct {
	Modules     map[string]SectionReader
	FirstReport *actor.PID
	// Global is the global actor, which the config actor asks to check a
	// changed global section before the change is applied (CheckConfig);
	// nil: the global section is not checked there.
	Global *actor.PID
}

// CheckConfig asks an owner whether it would take Section, its ConfigMap
// section in a change, without taking it. The config actor applies a
// change only when every owner whose section it changes would: an invalid
// section rejects the whole change, which queues nothing (spec/VALUES.md).
// Round tells the answer to the check it belongs to.
type CheckConfig struct {
	Section any
	Round   uint64
}

// ConfigChecked answers CheckConfig: Err is why the owner would reject
// the section, empty when it would take it.
type ConfigChecked struct {
	Owner string
	Round uint64
	Err   string
}

// SectionReader is a module actor reading one section.
type SectionReader struct {
	// Owner is the module's owner name (ModuleOwner), as ConfigApplied
	// names it.
	Owner string
	PID   *actor.PID
}
