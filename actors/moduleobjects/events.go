package moduleobjects

import (
	"time"

	"github.com/addon-actors/addon-operator/moduleobject"
)

// Event is an input of the core: one of the types below.
type Event interface{ moduleObjectsEvent() }

// Env is what the core is told with each event: the time, from the
// injected clock.
type Env struct{ Now time.Time }

// Events of the core.
type (
	// Published is the operator's state as the board has it now: one
	// input per module it knows (and "global"); Converged once the first
	// converge is done.
	Published struct {
		Inputs    []moduleobject.Input
		Converged bool
	}
	// Leading: this replica leads, and the objects are as Existing says
	// (listed by the shell as it took the lead).
	Leading struct{ Existing map[string]Existing }
	// NotLeading: another replica leads; nothing is written.
	NotLeading struct{}
	// Tick is a timer of ArmTimer firing.
	Tick struct{ Name string }
	// Written: an object's status was written (Created: the object too).
	Written struct {
		Name       string
		Generation int64
		Status     moduleobject.Status
	}
	// WriteFailed: a create, status write or delete failed. Owner is set
	// when the create found the object labelled as another operator's (the
	// namespace it names): the object is left to it. Missing: a status
	// write found the object gone (deleted by someone): it is created again.
	WriteFailed struct {
		Name, Op, Err string
		Owner         string
		Missing       bool
	}
	// Deleted: an object was deleted (or was gone).
	Deleted struct{ Name string }
	// Annotated: object Name's reconcile-at and reset-at annotations are
	// as said (annotations.go), as the watch saw it added or changed.
	Annotated struct {
		Name                 string
		ReconcileAt, ResetAt Token
	}
	// RunAsked: the operator took the run RequestRun asked for (Why), or
	// the request did not reach it (Err).
	RunAsked struct{ Name, Why, Err string }
)

// Existing is an object as listed: its generation and status (nil when
// it has none).
type Existing struct {
	Generation int64
	Status     *moduleobject.Status
}

func (Published) moduleObjectsEvent()   {}
func (Leading) moduleObjectsEvent()     {}
func (NotLeading) moduleObjectsEvent()  {}
func (Tick) moduleObjectsEvent()        {}
func (Written) moduleObjectsEvent()     {}
func (WriteFailed) moduleObjectsEvent() {}
func (Deleted) moduleObjectsEvent()     {}
func (Annotated) moduleObjectsEvent()   {}
func (RunAsked) moduleObjectsEvent()    {}
