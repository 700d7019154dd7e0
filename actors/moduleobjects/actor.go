package moduleobjects

import (
	"context"
	"errors"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/moduleobject"
	"github.com/addon-actors/addon-operator/supervision"
)

// Store is what the actor needs of the apiserver (Objects is the real one).
type Store interface {
	EnsureCRD(ctx context.Context) error
	List(ctx context.Context) (map[string]Existing, error)
	Create(ctx context.Context, name string, st moduleobject.Status) (int64, error)
	WriteStatus(ctx context.Context, name string, st moduleobject.Status) error
	Delete(ctx context.Context, name string) error
}

// Recorder records Events (client-go's tools/events recorder).
type Recorder interface {
	Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...any)
}

// Options configures the actor.
type Options struct {
	Store    Store
	Recorder Recorder
	Clock    supervision.Clock
	Log      *slog.Logger
	// Work bounds the apiserver calls; cancelled when the operator stops.
	Work context.Context
	// Annotations, when set with Operator, is watched for the runs users
	// ask by annotation, which the operator (its root) is asked for.
	Annotations AnnotationWatch
	Operator    *actor.PID
}

// Actor is the Module objects' writer.
type Actor struct {
	opts Options
	core *Core
	sys  *actor.ActorSystem
	// writers run the apiserver calls, a few at a time.
	writers *writers
}

// takeLead asks the actor to ensure the CRD and list the objects, again
// after a failure.
type takeLead struct{}

// New returns the producer of the actor; Published messages feed it.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Work == nil {
		opts.Work = context.Background()
	}
	return func() actor.Actor { return &Actor{opts: opts, core: NewCore(), writers: &writers{max: maxWriters}} }
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.sys = ctx.ActorSystem()
		a.watchAnnotations(ctx)
		a.handleTakeLead(ctx)
	case takeLead:
		a.handleTakeLead(ctx)
	case Event:
		a.step(ctx, msg)
	}
}

func (a *Actor) step(ctx actor.Context, ev Event) {
	for _, e := range a.core.Step(ev, Env{Now: a.opts.Clock.Now()}) {
		a.apply(ctx, e)
	}
}

// handleTakeLead ensures the CRD and lists the objects off the mailbox,
// then steps Leading; a failure is logged and tried again.
func (a *Actor) handleTakeLead(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		existing, err := a.lead()
		if err != nil {
			a.opts.Log.Error("module objects not written", "err", err, "retry", RetryDelay)
			a.opts.Clock.AfterFunc(RetryDelay, func() { sys.Root.Send(self, takeLead{}) })
			return
		}
		sys.Root.Send(self, Leading{Existing: existing})
	}()
}

func (a *Actor) lead() (map[string]Existing, error) {
	if err := a.opts.Store.EnsureCRD(a.opts.Work); err != nil {
		return nil, err
	}
	return a.opts.Store.List(a.opts.Work)
}

// apply carries out one effect; the apiserver's calls run on the writers
// (maxWriters at once) and report back.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	report := func(ev Event) { sys.Root.Send(self, ev) }
	switch e := e.(type) {
	case WriteStatus:
		a.writers.do(func() { a.writeStatus(e, report) })
	case CreateObject:
		a.writers.do(func() { a.create(e, report) })
	case DeleteObject:
		a.writers.do(func() { a.delete(e, report) })
	case EmitEvent:
		a.opts.Recorder.Eventf(reference(e.Name), nil, e.Event.Type, e.Event.Reason, e.Event.Action, "%s", e.Event.Note)
	case ArmTimer:
		a.opts.Clock.AfterFunc(e.After, func() { report(Tick{Name: e.Name}) })
	case Log:
		step.Log(e).Write(a.opts.Log)
	case RequestRun:
		go a.requestRun(e, report)
	default:
		panic("moduleobjects: unknown effect " + typeName(e))
	}
}

func (a *Actor) writeStatus(e WriteStatus, report func(Event)) {
	if err := a.opts.Store.WriteStatus(a.opts.Work, e.Name, e.Status); err != nil {
		report(WriteFailed{Name: e.Name, Op: "status", Err: err.Error(), Missing: apierrors.IsNotFound(err)})
		return
	}
	report(Written{Name: e.Name, Generation: e.Generation, Status: e.Status})
}

func (a *Actor) create(e CreateObject, report func(Event)) {
	gen, err := a.opts.Store.Create(a.opts.Work, e.Name, e.Status)
	var foreign ForeignError
	if errors.As(err, &foreign) {
		report(WriteFailed{Name: e.Name, Op: "create", Err: err.Error(), Owner: foreign.Owner})
		return
	}
	if err != nil {
		report(WriteFailed{Name: e.Name, Op: "create", Err: err.Error()})
		return
	}
	e.Status.ObservedGeneration = gen
	report(Written{Name: e.Name, Generation: gen, Status: e.Status})
}

func (a *Actor) delete(e DeleteObject, report func(Event)) {
	if err := a.opts.Store.Delete(a.opts.Work, e.Name); err != nil {
		report(WriteFailed{Name: e.Name, Op: "delete", Err: err.Error()})
		return
	}
	report(Deleted{Name: e.Name})
}
