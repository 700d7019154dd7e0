package operator_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

const patience = 5 * time.Second

// releases is a fixed list of owned releases and of others' (the helm side
// is chartrun's and is tested against the real apiserver there).
type releases struct{ names, others []string }

func (r releases) Names(context.Context) (operator.ReleaseList, error) {
	return operator.ReleaseList{Owned: r.names, All: append(slices.Clone(r.names), r.others...)}, nil
}
func (r releases) Delete(context.Context, string) error { return nil }

// forwarder is a child that hands every message to the probe, keeping the
// sender, so the test plays the config, queue, global and module actors.
func forwarder(probe *actortest.Probe) actor.Producer {
	return func() actor.Actor {
		return actor.ReceiveFunc(func(ctx actor.Context) {
			switch ctx.Message().(type) {
			case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
				return
			}
			ctx.RequestWithCustomSender(probe.PID, ctx.Message(), ctx.Sender())
		})
	}
}

type env struct {
	kit   *treeKit
	root  *actor.PID
	probe *actortest.Probe
	board *board.Board
	fatal chan error
}

func definition(t *testing.T, dir string, enabled, script bool) layout.Definition {
	names, err := values.ParseModuleDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	own := values.Sections{Enabled: map[string]bool{names.ValuesKey: enabled}}
	return layout.Definition{Names: names, Own: own, HasEnabledScript: script}
}

func start(t *testing.T, defs []layout.Definition, owned []string) *env {
	return startWith(t, defs, owned, func(*operator.LifecycleOptions) {})
}

// startWith is start with options changed by set.
func startWith(t *testing.T, defs []layout.Definition, owned []string, set func(*operator.LifecycleOptions)) *env {
	kit := newTreeKit(t)
	e := &env{kit: kit, probe: kit.NewProbe(), board: board.New(), fatal: make(chan error, 1)}
	children := []operator.Child{
		{Name: operator.ChildConfig, Props: actor.PropsFromProducer(forwarder(e.probe))},
		{Name: operator.ChildGlobal, Props: actor.PropsFromProducer(forwarder(e.probe))},
		{Name: operator.ChildQueue, Props: actor.PropsFromProducer(forwarder(e.probe))},
	}
	for _, d := range defs {
		children = append(children, operator.Child{Name: operator.ModuleChild(d.Names.Name),
			Props: actor.PropsFromProducer(forwarder(e.probe))})
	}
	opts := operator.LifecycleOptions{Modules: defs, Board: e.board,
		Releases: releases{names: owned}, Clock: kit.Clock, Fatal: func(err error) { e.fatal <- err }}
	set(&opts)
	root, err := kit.System.StartWith(children, opts)
	if err != nil {
		t.Fatal(err)
	}
	e.root = root
	return e
}

// boot plays a good start: config read, global ready, every owner accepts
// its section; the lifecycle then queues, in order (LIFECYCLE-STEPS 1–3),
// the global onStartup hooks, the start of the global bindings with their
// Synchronization, and a reload (beforeAll first).
//
// The lifecycle hands the global actor its section; the config actor hands
// each module its own (the readers the lifecycle told it), and the modules
// answer the lifecycle: the test plays them.
func (e *env) boot(t *testing.T, owners int) {
	readers := actortest.Expect[messages.SectionReaders](e.probe, patience)
	e.kit.Send(e.root, messages.ConfigChanged{Initial: true})
	e.kit.Send(e.root, messages.OwnerReady{Owner: messages.OwnerGlobal})
	actortest.Expect[messages.ApplyConfig](e.probe, patience)
	e.kit.Root.RequestWithCustomSender(e.root, messages.ConfigApplied{Owner: messages.OwnerGlobal}, e.probe.PID)
	for _, r := range readers.Modules {
		e.kit.Root.RequestWithCustomSender(readers.FirstReport, messages.ConfigApplied{Owner: r.Owner}, r.PID)
	}
	if got := 1 + len(readers.Modules); got != owners {
		t.Fatalf("%d owners given their section, want %d", got, owners)
	}
	q := actortest.Expect[messages.Enqueue](e.probe, patience)
	want := []string{"GlobalBindingRun  onStartup", "GlobalSynchronization", "ReloadAllModules"}
	if got := kinds(q.Tasks); !reflect.DeepEqual(got, want) {
		t.Fatalf("start-up queued %v, want %v", got, want)
	}
}

// answer is what a module actor says to CheckEnabled.
type answer struct {
	module        string
	enabled       bool
	enabledBefore []string // what it must be told
}

// runTask asks the operator to run a task, as the queue does, and returns
// its TaskDone, answering the CheckEnabled requests on the way, in order.
func (e *env) runTask(t *testing.T, task messages.Task, answers ...answer) messages.TaskDone {
	e.probe.Send(e.root, messages.RunTask{Task: task})
	for {
		r := e.probe.Receive(patience)
		switch msg := r.Message.(type) {
		case messages.TaskDone:
			return msg
		case messages.CheckEnabled:
			a := answers[0]
			answers = answers[1:]
			if !reflect.DeepEqual(msg.EnabledBefore, a.enabledBefore) {
				t.Fatalf("%s was told enabledModules %v, want %v", a.module, msg.EnabledBefore, a.enabledBefore)
			}
			e.kit.Root.RequestWithCustomSender(e.root, messages.EnabledChecked{Module: a.module, Enabled: a.enabled}, e.probe.PID)
		case messages.ModuleDisabled, messages.HoldEvents:
		default:
			t.Fatalf("unexpected %T %+v", msg, msg)
		}
	}
}

// expectDiscovery runs the discovery task and checks the kinds of the
// tasks it queues as its next steps.
func (e *env) expectDiscovery(t *testing.T, want ...string) {
	t.Helper()
	done := e.runTask(t, messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator})
	if got := kinds(done.Next); !reflect.DeepEqual(got, want) {
		t.Fatalf("discovery queued\n%v\nwant\n%v", got, want)
	}
}

func kinds(tasks []messages.Task) []string {
	var out []string
	for _, t := range tasks {
		out = append(out, strings.TrimSpace(string(t.Kind)+" "+t.Module+" "+t.Binding))
	}
	return out
}

func TestConvergeFromBootToReady(t *testing.T) {
	defs := []layout.Definition{definition(t, "001-a", true, false), definition(t, "002-b", false, false),
		definition(t, "003-c", true, true)}
	e := start(t, defs, []string{"b", "gone"})
	e.boot(t, 4)

	done := e.runTask(t, messages.NewReloadAll(messages.ActivationReloadAll, "test"))
	if got := kinds(done.Next); !reflect.DeepEqual(got, []string{"GlobalBindingRun  beforeAll", "DiscoverModules"}) {
		t.Fatalf("reload all expands to %v", got)
	}
	done = e.runTask(t, messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator},
		answer{"a", true, nil}, answer{"c", false, []string{"a"}})
	want := []string{"ModuleRun a", "ModuleDelete b", "ModulePurge gone", "GlobalBindingRun  afterAll", "ConvergeDone"}
	if got := kinds(done.Next); !reflect.DeepEqual(got, want) {
		t.Fatalf("discovery queued\n%v\nwant\n%v", got, want)
	}
	if got := e.board.EnabledModules(); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("enabled modules %v", got)
	}
	if e.board.Ready() {
		t.Fatal("ready before the converge is done")
	}
	e.runTask(t, messages.Task{Kind: messages.TaskConvergeDone, Owner: messages.OwnerOperator})
	if !e.board.Ready() {
		t.Fatal("not ready after the converge")
	}
}

// A disabled module's release is deleted whoever installed it (the
// original, an older version, plain helm: adopted by name); a release
// without a module dir is purged only when this operator installed it.
func TestReleasesOfOthers(t *testing.T) {
	defs := []layout.Definition{definition(t, "001-a", false, false)}
	e := startWith(t, defs, nil, func(o *operator.LifecycleOptions) { o.Releases = releases{others: []string{"a", "stranger"}} })
	e.boot(t, 2)
	e.expectDiscovery(t, "ModuleDelete a", "GlobalBindingRun  afterAll", "ConvergeDone")
}

// A module whose dir is there but could not be loaded (a broken
// values.yaml) is left out, but its release is not one without a module
// dir: it is kept, not purged.
func TestReleaseOfAnUnloadedModuleIsKept(t *testing.T) {
	e := startWith(t, nil, nil, func(o *operator.LifecycleOptions) {
		o.Releases, o.Unloaded = releases{names: []string{"broken", "gone"}}, []string{"broken"}
	})
	e.boot(t, 1)
	e.expectDiscovery(t, "ModulePurge gone", "GlobalBindingRun  afterAll", "ConvergeDone")
}

func TestInvalidConfigAtStartupIsFatal(t *testing.T) {
	e := start(t, nil, nil)
	e.kit.Send(e.root, messages.ConfigInvalid{Initial: true, Err: `key "global": invalid`})
	select {
	case err := <-e.fatal:
		if !strings.Contains(err.Error(), `key "global"`) {
			t.Fatalf("fatal error %v", err)
		}
	case <-time.After(patience):
		t.Fatal("no fatal error")
	}
}

func TestEnabledFlagChangeReloadsAll(t *testing.T) {
	e := start(t, []layout.Definition{definition(t, "001-a", true, false)}, nil)
	e.boot(t, 2)
	e.kit.Send(e.root, messages.ConfigChanged{Change: values.Change{Enabled: []string{"a"}}})
	q := actortest.Expect[messages.Enqueue](e.probe, patience)
	if len(q.Tasks) != 1 || q.Tasks[0].Kind != messages.TaskReloadAll {
		t.Fatalf("enabled flag change queued %+v", q.Tasks)
	}
}

// After the first converge the modules dirs are looked at every interval:
// the same dirs queue nothing; a dir added, or a module.yaml changed,
// queues a reload of all modules (whose discovery reads the dirs), once.
func TestModulesDirsLookedAtEveryInterval(t *testing.T) {
	a := definition(t, "001-a", true, false)
	a.Dir = "/modules/001-a"
	var mu sync.Mutex
	dirs := []string{"/modules/001-a"}
	list := func() ([]string, error) { mu.Lock(); defer mu.Unlock(); return slices.Clone(dirs), nil }
	e := startWith(t, []layout.Definition{a}, nil, func(o *operator.LifecycleOptions) {
		o.ListDirs, o.DirsInterval = list, time.Minute
	})
	e.boot(t, 2)
	e.runTask(t, messages.Task{Kind: messages.TaskConvergeDone, Owner: messages.OwnerOperator})
	look := func() {
		t.Helper()
		if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		e.kit.Clock.Advance(time.Minute)
	}
	change := func(entries ...string) {
		t.Helper()
		mu.Lock()
		dirs = entries
		mu.Unlock()
		look()
		q := actortest.Expect[messages.Enqueue](e.probe, patience)
		if len(q.Tasks) != 1 || q.Tasks[0].Kind != messages.TaskReloadAll || q.Tasks[0].Reason != "modules dirs changed" {
			t.Fatalf("%v queued %+v", entries, q.Tasks)
		}
		look()
		e.probe.ExpectNoMessage(50 * time.Millisecond)
	}
	mu.Lock()
	dirs = append(dirs, "/modules/001-a/module.yaml@10.1") // a stamp the first look does not compare
	mu.Unlock()
	look()
	e.probe.ExpectNoMessage(50 * time.Millisecond)
	change("/modules/001-a", "/modules/001-a/module.yaml@10.1", "/modules/002-b")
	change("/modules/001-a", "/modules/001-a/module.yaml@12.2", "/modules/002-b") // a module.yaml changed
}

// A module actor that stops when nobody stopped it is shown failed on the
// board and left out of the discoveries that follow (its release is
// neither run nor deleted).
func TestModuleActorStoppedIsFailed(t *testing.T) {
	defs := []layout.Definition{definition(t, "001-a", true, false), definition(t, "002-b", true, false)}
	e := start(t, defs, []string{"a", "b"})
	e.boot(t, 3)
	e.kit.Root.Stop(actor.NewPID(e.kit.System.Actors.Address(), operator.RootName+"/"+operator.ModuleChild("a")))
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	failed := func(b *board.Board) bool { s, ok := b.Module("a"); return ok && s.Phase == board.PhaseFailed }
	if err := e.board.WaitFor(ctx, failed); err != nil {
		t.Fatalf("module a not shown failed: %v", err)
	}
	done := e.runTask(t, messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator}, answer{"b", true, nil})
	if got, want := kinds(done.Next), []string{"ModuleRun b", "GlobalBindingRun  afterAll", "ConvergeDone"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("discovery queued\n%v\nwant\n%v", got, want)
	}
}
