package app

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"

	"github.com/addon-actors/addon-operator/actors/moduleobjects"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/supervision"
)

// reportingController names the Module objects' Events' writer.
const reportingController = "addon-operator.io/module-objects"

// moduleObjectsTimeout bounds each request of the Module objects' writer:
// a request sent while the apiserver restarts may hang for seconds; cut,
// it is tried again after moduleobjects.RetryDelay.
const moduleObjectsTimeout = 2 * time.Second

// startModuleObjects starts the writer of the Module objects
// (ADDON_OPERATOR_MODULE_OBJECTS), fed from the board's changes until
// work is done. The app runs only while this replica leads, so the writer
// takes the lead as it starts; it watches the objects' annotations and
// asks the operator (root) for the runs they ask for. Its clients are its
// own (their own rate limiter, at the configured QPS;
// moduleObjectsTimeout): its writes and Events never wait behind, nor hold
// up, the runs' and the watches' requests.
func (a *App) startModuleObjects(work context.Context, namespace string, rc *rest.Config, defs []layout.Definition,
	root *actor.PID) error {
	own := rest.CopyConfig(rc)
	own.RateLimiter, own.Timeout = nil, moduleObjectsTimeout
	client, err := kubernetes.NewForConfig(own)
	if err != nil {
		return fmt.Errorf("the Module objects' client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(own)
	if err != nil {
		return fmt.Errorf("the Module objects' client: %w", err)
	}
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	broadcaster.StartRecordingToSinkWithContext(work)
	go func() { <-work.Done(); broadcaster.Shutdown() }()
	objects := moduleobjects.Objects{Client: dyn, Namespace: namespace}
	props := a.System.TopProps("moduleobjects", moduleobjects.New(moduleobjects.Options{
		Store: objects, Recorder: broadcaster.NewRecorder(scheme.Scheme, reportingController),
		Clock: a.clock, Log: a.log.With("actor", "moduleobjects"), Work: work, Annotations: objects, Operator: root}))
	pid, err := a.System.Actors.Root.SpawnNamed(props, "moduleobjects")
	if err != nil {
		return fmt.Errorf("start the Module objects' writer: %w", err)
	}
	versions := map[string]string{}
	for _, d := range defs {
		versions[d.Names.Name] = d.Version
	}
	go a.feedModuleObjects(work, pid, versions)
	return nil
}

// feedInterval is the least time between two reads of the board for the
// Module objects: a read costs a status computed per module, and a
// converge publishes thousands of times; an object is written at most once
// a second anyway (moduleobjects.MinInterval), and the read after the pause
// has the last state. Until the first converge is done, when most objects
// wait for its end, the reads are further apart (feedIntervalConverging).
const (
	feedInterval           = 200 * time.Millisecond
	feedIntervalConverging = time.Second
)

// feedModuleObjects sends the writer the board's state after a
// publication, at most once per feedInterval; it reads the board inside
// WaitFor's first check, so that no publication between two reads is
// missed.
func (a *App) feedModuleObjects(work context.Context, pid *actor.PID, versions map[string]string) {
	var readyAt time.Time
	for {
		interval := feedInterval
		if !a.Board.Ready() {
			interval = feedIntervalConverging
		}
		if !supervision.Sleep(work, a.clock, interval) {
			return
		}
		first := true
		err := a.Board.WaitFor(work, func(*board.Board) bool {
			if !first {
				return true
			}
			first = false
			now := a.clock.Now()
			if readyAt.IsZero() && a.Board.Ready() {
				readyAt = now
			}
			a.System.Actors.Root.Send(pid, moduleobjects.Published{
				Inputs: moduleInputs(a.Board, versions, readyAt, now), Converged: a.Board.Ready()})
			return false
		})
		if err != nil {
			return
		}
	}
}
