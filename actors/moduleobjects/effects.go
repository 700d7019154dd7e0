package moduleobjects

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// Effect is an output of the core: one of the types below, a closed set
// the shell's apply covers case by case.
type Effect interface{ moduleObjectsEffect() }

// Effects of the core.
type (
	// WriteStatus replaces the status of object Name (of Generation).
	WriteStatus struct {
		Name       string
		Generation int64
		Status     moduleobject.Status
	}
	// CreateObject creates object Name, then writes its status.
	CreateObject struct {
		Name   string
		Status moduleobject.Status
	}
	// DeleteObject deletes object Name.
	DeleteObject struct{ Name string }
	// EmitEvent records an Event on object Name.
	EmitEvent struct {
		Name  string
		Event moduleobject.Event
	}
	// ArmTimer asks the clock for Tick{Name} after After.
	ArmTimer struct {
		Name  string
		After time.Duration
	}
	// Log is a record for the actor's logger.
	Log step.Log
)

func (WriteStatus) moduleObjectsEffect()  {}
func (CreateObject) moduleObjectsEffect() {}
func (DeleteObject) moduleObjectsEffect() {}
func (EmitEvent) moduleObjectsEffect()    {}
func (ArmTimer) moduleObjectsEffect()     {}
func (Log) moduleObjectsEffect()          {}
