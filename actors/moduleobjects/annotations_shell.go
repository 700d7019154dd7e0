package moduleobjects

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/messages"
)

// AnnotationWatch reports the annotations of the operator's Module
// objects (Objects is the real one) until ctx is done.
type AnnotationWatch interface {
	WatchAnnotations(ctx context.Context, report func(Annotated)) error
}

// AskTimeout bounds the wait for the operator to take a run asked.
const AskTimeout = 10 * time.Second

// WatchAnnotations watches the Module objects labelled with the
// operator's namespace (an informer: listed, then watched, re-listed
// after a break) and reports the reconcile-at and reset-at annotations of
// each object that has one, as it is added and each time it changes.
func (o Objects) WatchAnnotations(ctx context.Context, report func(Annotated)) error {
	inf := dynamicinformer.NewFilteredDynamicInformer(o.Client, gvr(), "", 0, cache.Indexers{},
		func(opts *metav1.ListOptions) { opts.LabelSelector = OwnerLabel + "=" + o.Namespace })
	on := func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			if ev, asked := annotatedOf(u); asked {
				report(ev)
			}
		}
	}
	_, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: on,
		UpdateFunc: func(_, obj any) { on(obj) }})
	if err != nil {
		return fmt.Errorf("watch the Module objects' annotations: %w", err)
	}
	inf.Informer().Run(ctx.Done())
	return nil
}

func annotatedOf(u *unstructured.Unstructured) (Annotated, bool) {
	ann := u.GetAnnotations()
	rec, recSet := ann[ReconcileAnnotation]
	res, resSet := ann[ResetAnnotation]
	return Annotated{Name: u.GetName(), ReconcileAt: Token{rec, recSet}, ResetAt: Token{res, resSet}}, recSet || resSet
}

// watchAnnotations starts the watch, when there is one and an operator to
// ask; it ends with Options.Work.
func (a *Actor) watchAnnotations(ctx actor.Context) {
	if a.opts.Annotations == nil || a.opts.Operator == nil {
		return
	}
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		if err := a.opts.Annotations.WatchAnnotations(a.opts.Work, func(ev Annotated) { sys.Root.Send(self, ev) }); err != nil {
			a.opts.Log.Error("the Module objects' annotations are not watched", "err", err)
		}
	}()
}

// requestRun asks the operator for the run, off the mailbox, and reports
// whether it took it.
func (a *Actor) requestRun(e RequestRun, report func(Event)) {
	msg := messages.ReconcileModule{Module: e.Name, Force: e.Force, Reset: e.Reset, Why: e.Why}
	_, err := a.sys.Root.RequestFuture(a.opts.Operator, msg, AskTimeout).Result()
	if err != nil {
		report(RunAsked{Name: e.Name, Err: fmt.Sprintf("ask the operator: %v", err)})
		return
	}
	report(RunAsked{Name: e.Name, Why: e.Why})
}
