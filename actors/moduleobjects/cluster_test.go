package moduleobjects_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"

	"github.com/addon-actors/addon-operator/actors/moduleobjects"
	"github.com/addon-actors/addon-operator/moduleobject"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// countingStore counts the writes that reach the apiserver and reports
// each one done.
type countingStore struct {
	moduleobjects.Objects
	done chan string
}

func (s countingStore) Create(ctx context.Context, name string, st moduleobject.Status) (int64, error) {
	gen, err := s.Objects.Create(ctx, name, st)
	s.done <- "create " + name
	return gen, err
}

func (s countingStore) WriteStatus(ctx context.Context, name string, st moduleobject.Status) error {
	err := s.Objects.WriteStatus(ctx, name, st)
	s.done <- "status " + name
	return err
}

// TestObjectsOnTheApiserver: the CRD is created, an object per module
// with its status; the status read back is the same as the one computed
// (so a restart where nothing changed writes nothing), and a module's
// failure is written after the coalescing second, moved on the fake clock.
func TestObjectsOnTheApiserver(t *testing.T) {
	cfg := testKube.Config(t)
	ns := testKube.Namespace(t)
	ctx := cluster.TestContext(t, 2*time.Minute)
	dyn := dynamic.NewForConfigOrDie(cfg)
	store := countingStore{Objects: moduleobjects.Objects{Client: dyn, Namespace: ns}, done: make(chan string, 16)}
	clock := supervision.NewFakeClock(t0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: testKube.Client(t).EventsV1()})
	broadcaster.StartRecordingToSinkWithContext(ctx)
	t.Cleanup(broadcaster.Shutdown)
	sys := supervision.NewSystem(supervision.SystemOptions{Clock: clock})
	t.Cleanup(sys.Shutdown)
	name := "mo-" + ns
	pid := sys.Actors.Root.Spawn(sys.TopProps("moduleobjects", moduleobjects.New(moduleobjects.Options{
		Store: store, Recorder: broadcaster.NewRecorder(scheme.Scheme, "addon-operator.io/test"), Clock: clock, Work: ctx, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))})))
	in := ready(name)
	sys.Actors.Root.Send(pid, moduleobjects.Published{Inputs: []moduleobject.Input{in}, Converged: true})
	expectWrite(t, store.done, "create "+name)

	listed, err := store.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := listed[name].Status
	want := moduleobject.Compute(in, moduleobject.Status{}, 1, clock.Now())
	if got == nil || !moduleobject.Same(*got, want) || got.Phase != moduleobject.Ready {
		t.Fatalf("status read back %+v, want %+v", got, want)
	}

	sys.Actors.Root.Send(pid, moduleobjects.Published{Inputs: []moduleobject.Input{failing(name)}, Converged: true})
	if err := clock.WaitForTimers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(moduleobjects.MinInterval)
	expectWrite(t, store.done, "status "+name)
	expectPhase(t, dyn, name, moduleobject.Retrying, "after the failure")
	if err := store.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
}

func expectWrite(t *testing.T, done <-chan string, want string) {
	t.Helper()
	select {
	case got := <-done:
		if got != want {
			t.Fatalf("write %q, want %q", got, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s within 30 s", want)
	}
}

// TestTwoOperatorsOneName: module names are cluster-wide; the object
// another operator created (its label) is a ForeignError to the second,
// which writes nothing to it; a status write to an object deleted meanwhile
// is NotFound (the core creates it again).
func TestTwoOperatorsOneName(t *testing.T) {
	ctx := cluster.TestContext(t, time.Minute)
	dyn := dynamic.NewForConfigOrDie(testKube.Config(t))
	nsA, nsB := testKube.Namespace(t), testKube.Namespace(t)
	a, b := moduleobjects.Objects{Client: dyn, Namespace: nsA}, moduleobjects.Objects{Client: dyn, Namespace: nsB}
	if err := a.EnsureCRD(ctx); err != nil {
		t.Fatal(err)
	}
	name := "shared-" + nsA
	st := moduleobject.Compute(ready(name), moduleobject.Status{}, 1, t0)
	if _, err := a.Create(ctx, name, st); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Delete(context.Background(), name) })
	_, err := b.Create(ctx, name, moduleobject.Compute(failing(name), moduleobject.Status{}, 1, t0))
	var foreign moduleobjects.ForeignError
	if !errors.As(err, &foreign) || foreign.Owner != nsA {
		t.Fatalf("second operator's create: %v, want a ForeignError naming %s", err, nsA)
	}
	expectPhase(t, dyn, name, moduleobject.Ready, "after the second operator's create (the first's)")
	if err := a.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.WriteStatus(ctx, name, st); !apierrors.IsNotFound(err) {
		t.Fatalf("status write to a deleted object: %v, want NotFound", err)
	}
}
