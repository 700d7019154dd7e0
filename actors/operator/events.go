package operator

import (
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// Event is an input of the operator's core: one of the types below, each
// what the lifecycle makes of one message of the root.
type Event interface{ operatorEvent() }

// Events of the operator's core.
type (
	// ChildrenSpawned: the root has spawned its children; Owners are the
	// module owners whose actor runs (a spawn may fail).
	ChildrenSpawned struct{ Owners []string }
	// ConfigChanged is the config actor's ConfigMap (ConfigChanged).
	ConfigChanged struct{ Msg messages.ConfigChanged }
	// ConfigInvalid: the config actor could not read the ConfigMap.
	ConfigInvalid struct{ Msg messages.ConfigInvalid }
	// OwnerReady: the global actor or a module actor configured its hooks.
	OwnerReady struct{ Msg messages.OwnerReady }
	// ConfigApplied is an owner's answer to its section.
	ConfigApplied struct{ Msg messages.ConfigApplied }
	// KubeSynced: an owner's kubernetes bindings are watched (or not).
	KubeSynced struct{ Msg messages.KubeSynced }
	// TaskAssigned is one of the operator's tasks the queue runs (RunTask).
	TaskAssigned struct{ Assigned hookrun.Assigned }
	// EnabledAnswered is a module actor's answer to CheckEnabled.
	EnabledAnswered struct{ Msg messages.EnabledChecked }
	// ModulesSpawned: the actors of SpawnModules (Defs) are started, but
	// those of Failed (by name, with why).
	ModulesSpawned struct {
		Defs   []layout.Definition
		Failed map[string]error
	}
	// GroupReported is the queue's report of a run of the graph.
	GroupReported struct{ Report messages.GroupRunReport }
	// Superseded: a reload dropped a failing converge.
	Superseded struct{ Msg messages.ConvergeSuperseded }
	// ModulesScanned lists what is there now: Defs (in module order), the
	// dirs that could not be read (Errs), and what the I/O child saw of the
	// dirs of the known modules (Looked), which the core judges gone or
	// unseen (judgeDirs). Gone and Unseen are known modules already judged
	// so (their dir gone; cannot be seen, with the reason) by a caller that
	// looks at no dir (plan takes them from the board).
	ModulesScanned struct {
		Defs   []layout.Definition
		Errs   []error
		Looked []DirLook
		Gone   []string
		Unseen map[string]string
	}
	// DirLook is what the I/O child saw of a known module's dir: why the
	// modules dir holding it cannot be looked at (ParentErr), else why
	// the dir, symlinks followed, cannot be looked at (Err, "" when it can)
	// and whether the entry itself is missing (NoEntry).
	DirLook struct {
		Module, Dir    string
		ParentErr, Err string
		NoEntry        bool
	}
	// ReleasesListed are the releases in the namespace: those this
	// operator installed (Owned), all of them, and those helm left stuck
	// (Stuck: release -> "revision N left STATE").
	ReleasesListed struct {
		Owned, All []string
		Stuck      map[string]string
		Err        error
	}
	// ReleaseDeleted: a purge's uninstall is done.
	ReleaseDeleted struct {
		Name string
		Err  error
	}
	// ChildStopped: a child of the root (Name, its PID's ID) stopped when
	// nobody stopped it.
	ChildStopped struct{ Name, ID string }
	// ReconcileAsked: a run asked on a Module object (core_reconcile.go).
	ReconcileAsked struct{ Msg messages.ReconcileModule }
)

func (ChildrenSpawned) operatorEvent() {}
func (ConfigChanged) operatorEvent()   {}
func (ConfigInvalid) operatorEvent()   {}
func (OwnerReady) operatorEvent()      {}
func (ConfigApplied) operatorEvent()   {}
func (KubeSynced) operatorEvent()      {}
func (TaskAssigned) operatorEvent()    {}
func (EnabledAnswered) operatorEvent() {}
func (ModulesSpawned) operatorEvent()  {}
func (GroupReported) operatorEvent()   {}
func (Superseded) operatorEvent()      {}
func (ModulesScanned) operatorEvent()  {}
func (ReleasesListed) operatorEvent()  {}
func (ReleaseDeleted) operatorEvent()  {}
func (ChildStopped) operatorEvent()    {}
func (ReconcileAsked) operatorEvent()  {}
