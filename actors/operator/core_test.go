package operator

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// coreTest is a core and the test kit's harness that steps it, at a fixed
// time; describe writes its effects.
type coreTest struct {
	actortest.Harness[Event, Effect]
	core *Core
}

func newCoreTest(t *testing.T, opts CoreOptions) coreTest {
	core := NewCore(opts)
	env := Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	step := func(ev Event) []Effect { return core.Step(ev, env) }
	return coreTest{Harness: actortest.Harness[Event, Effect]{T: t, Step: step, Describe: describe}, core: core}
}

// assigned is one of the operator's tasks, assigned by the queue.
func assigned(task messages.Task) TaskAssigned {
	return TaskAssigned{Assigned: hookrun.Assigned{Task: task}}
}

// describe writes an effect as a test expects it; "" for a Log.
func describe(e Effect) string {
	switch e := e.(type) {
	case Log:
		return ""
	case Fatal:
		return "Fatal " + e.Err.Error()
	case CheckEnabled:
		return fmt.Sprintf("CheckEnabled %s %v", e.Module, e.EnabledBefore)
	case Enqueue:
		return "Enqueue " + strings.Join(kindsOf(e.Tasks), ", ")
	case FinishTask:
		if e.Done.Err != "" {
			return "Finish err=" + e.Done.Err
		}
		return "Finish " + strings.Join(kindsOf(e.Done.Next), ", ")
	case Discovered:
		return fmt.Sprintf("Discovered %v unmet=%v decisions=%d", e.Enabled, e.Unmet, len(e.Decisions))
	case HoldEvents:
		return fmt.Sprintf("HoldEvents %v", e.Hold)
	case ModuleOut:
		return fmt.Sprintf("ModuleOut %s %s", e.Name, map[Out]string{OutDisabled: "disabled", OutRemoved: "removed", OutStopped: "stopped"}[e.How])
	case Count:
		return fmt.Sprintf("Count %s", map[Metric]string{MetricDiscoverErrors: "discover error", MetricConfigErrors: "config error", MetricPurges: "purge " + e.Release}[e.Metric])
	case SpawnModules:
		var names []string
		for _, d := range e.Defs {
			names = append(names, d.Names.Name)
		}
		return "SpawnModules " + strings.Join(names, ",")
	case TellReaders:
		return fmt.Sprintf("TellReaders %d", len(e.Modules))
	case Converged:
		return "Converged " + string(e.Activation)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", e), "operator.")
}

// kindsOf writes tasks as "ModuleRun a", "ModuleDelete b (cause: reason)".
func kindsOf(tasks []messages.Task) []string {
	var out []string
	for _, t := range tasks {
		s := strings.TrimSpace(string(t.Kind) + " " + t.Module + " " + t.Binding + " " + strings.Join(t.Modules, ","))
		if t.Kind == messages.TaskModuleDelete {
			s += " (" + t.Cause + ": " + t.Reason + ")"
		}
		out = append(out, s)
	}
	return out
}

// enabledDef is a module enabled in its own values.yaml (or disabled).
func enabledDef(t *testing.T, dir string, enabled bool) layout.Definition {
	d := def(t, dir, "")
	d.Version = "1.0.0"
	d.Own.Enabled = map[string]bool{d.Names.ValuesKey: enabled}
	return d
}

var discoverTask = messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator}

const afterConverge = "GlobalBindingRun  afterAll, ConvergeDone"

// Discovery asks the candidates (enabled by their flags) in run order,
// each told the modules enabled before it; unmet requirements disable a
// module before its script is asked; the releases are listed last; then
// the runs, deletes (with the layer that disabled the module) and purges
// are decided, and the modules discovery disabled are told.
func TestCoreDiscovery(t *testing.T) {
	a, b, c := enabledDef(t, "001-a", true), enabledDef(t, "002-b", true), enabledDef(t, "003-c", true)
	offByConfig := values.Sections{Enabled: map[string]bool{"c": false}}
	type answer struct {
		module  string
		enabled bool
	}
	cases := []struct {
		name    string
		defs    []layout.Definition
		known   CoreOptions
		answers []answer
		asked   []string // CheckEnabled effects, in order
		owned   []string
		want    []string // the effects that end discovery
	}{
		{name: "nothing changes", defs: []layout.Definition{a, b, c}, known: CoreOptions{Enabled: []string{"a", "b", "c"}},
			answers: []answer{{"a", true}, {"b", true}, {"c", true}},
			asked:   []string{"CheckEnabled a []", "CheckEnabled b [a]", "CheckEnabled c [a b]"},
			want: []string{"HoldEvents false", "Discovered [a b c] unmet=map[] decisions=3", "PublishEnabled",
				"Finish ModuleRun a, ModuleRun b, ModuleRun c, " + afterConverge}},
		{name: "disabled by script and by flag", defs: []layout.Definition{a, b, c},
			known:   CoreOptions{Enabled: []string{"a", "b", "c"}, Config: offByConfig},
			answers: []answer{{"a", true}, {"b", false}},
			asked:   []string{"CheckEnabled a []", "CheckEnabled b [a]"},
			want: []string{"HoldEvents false", "Discovered [a] unmet=map[] decisions=3", "PublishEnabled",
				"ModuleOut b disabled", "ModuleOut c disabled",
				"Finish ModuleRun a, ModuleDelete b (enabled-script: disabled by its enabled script), " +
					"ModuleDelete c (configmap: disabled in ConfigMap key cEnabled), " + afterConverge}},
		{name: "a skipped module is neither asked, run nor deleted; an owned release without a dir is purged",
			defs: []layout.Definition{a, b}, known: CoreOptions{Enabled: []string{"b"}, Failed: []string{"b"}},
			answers: []answer{{"a", true}}, asked: []string{"CheckEnabled a []"}, owned: []string{"gone"},
			want: []string{"HoldEvents false", "Discovered [a] unmet=map[] decisions=2", "PublishEnabled",
				"Finish ModuleRun a, ModulePurge gone, " + afterConverge}},
		{name: "unmet requirements disable before the script is asked", defs: []layout.Definition{a, enabledDef(t, "002-b", false),
			requires(enabledDef(t, "003-c", true), "b")}, known: CoreOptions{Enabled: []string{"a", "c"}},
			answers: []answer{{"a", true}}, asked: []string{"CheckEnabled a []"},
			want: []string{"HoldEvents false", "Discovered [a] unmet=map[c:[dependency 'b' is disabled]] decisions=3", "PublishEnabled",
				"ModuleOut b disabled", "ModuleOut c disabled",
				"Finish ModuleRun a, ModuleDelete c (requirements: turned off because of unmet requirements: dependency 'b' is disabled), " +
					afterConverge}},
		{name: "a module requiring one that is left out is held, not judged", defs: []layout.Definition{a,
			requires(b, "a")}, known: CoreOptions{Unseen: map[string]string{"a": "dangling"}, Enabled: []string{"a", "b"}},
			want: []string{"HoldEvents false", "Discovered [] unmet=map[] decisions=2", "PublishEnabled",
				"Finish " + afterConverge}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.known.Modules = tc.defs
			h := newCoreTest(t, tc.known)
			steps := append(tc.asked, "ListReleases")
			h.Expect(assigned(discoverTask), steps[0])
			for i, a := range tc.answers {
				h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: a.module, Enabled: a.enabled}}, steps[i+1])
			}
			h.Expect(ReleasesListed{Owned: tc.owned, All: tc.owned}, tc.want...)
		})
	}
}

// A module actor that cannot answer is left out (failed); an enabled
// script or the release list that fails fails the discovery, which holds
// the events' runs and is counted.
func TestCoreDiscoveryFailures(t *testing.T) {
	a, b := enabledDef(t, "001-a", true), enabledDef(t, "002-b", true)
	h := newCoreTest(t, CoreOptions{Modules: []layout.Definition{a, b}})
	h.Expect(assigned(discoverTask), "CheckEnabled a []")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "a", Unavailable: true}}, "CheckEnabled b []")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "b", Err: "exit status 1"}},
		"Count discover error", "HoldEvents true", "Finish err=discover modules: exit status 1")
	h.Expect(assigned(discoverTask), "CheckEnabled b []")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "b", Enabled: true}}, "ListReleases")
	h.Expect(ReleasesListed{Err: errors.New("forbidden")},
		"Count discover error", "HoldEvents true", "Finish err=discover modules: list releases: forbidden")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "b", Enabled: true}}) // late: no discovery
}

// Start-up: the config actor is told who reads what; the global actor
// gets its section once the config is read and it is ready; start-up is
// queued once every owner applied its section. Invalid configuration is
// fatal, told once.
func TestCoreBoot(t *testing.T) {
	h := newCoreTest(t, CoreOptions{Modules: []layout.Definition{enabledDef(t, "001-a", true)}})
	h.Expect(ChildrenSpawned{Owners: []string{"module/a"}}, "TellReaders 1", "PublishUnseen")
	h.Expect(ConfigChanged{Msg: messages.ConfigChanged{Initial: true}})
	h.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: "module/a"}})
	h.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: messages.OwnerGlobal}}, "ApplyGlobalConfig")
	h.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: messages.OwnerGlobal}})
	h.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: "module/a"}},
		"Enqueue GlobalBindingRun  onStartup, GlobalSynchronization, ReloadAllModules")
	h.Expect(ConfigChanged{Msg: messages.ConfigChanged{Change: values.Change{Global: true, Enabled: []string{"a"}}}},
		"ApplyGlobalConfig", "Enqueue ReloadAllModules")
	h.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: messages.OwnerGlobal, Changed: true}}, "Enqueue ReloadAllModules")
	h.Expect(ConfigInvalid{Msg: messages.ConfigInvalid{Err: "late"}}) // after start-up: the last good config stays

	bad := newCoreTest(t, CoreOptions{Modules: []layout.Definition{enabledDef(t, "001-a", true)}})
	bad.Expect(ChildrenSpawned{Owners: []string{"module/a"}}, "TellReaders 1", "PublishUnseen")
	bad.Expect(ConfigChanged{Msg: messages.ConfigChanged{Initial: true}})
	bad.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: messages.OwnerGlobal}}, "ApplyGlobalConfig")
	bad.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: "module/a", Err: "replicas: minimum 1"}})
	bad.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: messages.OwnerGlobal}},
		"Fatal invalid configuration: [replicas: minimum 1]")
	bad.Expect(KubeSynced{Msg: messages.KubeSynced{Owner: messages.OwnerGlobal, Err: "unknown kind"}}) // told once
}

// A converge is labelled with what started it: the first task of it that
// names an activation (a reload, or the discovery it expands into); a
// discovery alone is a reload of all modules.
func TestConvergeActivation(t *testing.T) {
	h := newCoreTest(t, CoreOptions{})
	reload := func(a messages.Activation) messages.Task {
		return messages.NewReloadAll(a, "test")
	}
	discover := func(a messages.Activation) messages.Task {
		return messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Activation: a}
	}
	done := messages.Task{Kind: messages.TaskConvergeDone}
	h.Expect(assigned(reload(messages.ActivationStartup)), "Finish GlobalBindingRun  beforeAll, DiscoverModules")
	h.Expect(assigned(discover(messages.ActivationStartup)), "ListReleases")
	h.Expect(assigned(done), "MarkReady", "Converged OperatorStartup", "Finish ")
	h.Expect(assigned(reload(messages.ActivationGlobalValues)), "Finish GlobalBindingRun  beforeAll, DiscoverModules")
	h.Expect(assigned(discover(messages.ActivationReloadAll)), "ListReleases")
	h.Expect(assigned(done), "Converged GlobalValuesChanged", "Finish ")
	h.Expect(assigned(discover("")), "ListReleases")
	h.Expect(assigned(done), "Converged ReloadAllModules", "Finish ")
}

// A module that failed to start sits out start-up's verdict on its
// section and discovery; a global hook that cannot start is fatal.
func TestCoreBootFailedOwners(t *testing.T) {
	h := newCoreTest(t, CoreOptions{Modules: []layout.Definition{enabledDef(t, "001-a", true)}})
	h.Expect(ChildrenSpawned{Owners: []string{"module/a"}}, "TellReaders 1", "PublishUnseen")
	h.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: "module/a", Err: "bad --config"}})
	h.Expect(ConfigChanged{Msg: messages.ConfigChanged{Initial: true}})
	h.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: messages.OwnerGlobal}}, "ApplyGlobalConfig")
	h.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: "module/a", Err: "no hooks"}})
	h.Expect(ConfigApplied{Msg: messages.ConfigApplied{Owner: messages.OwnerGlobal}},
		"Enqueue GlobalBindingRun  onStartup, GlobalSynchronization, ReloadAllModules")
	h.Expect(assigned(discoverTask), "ListReleases")
	// Its hooks configure on a retry: it is back, and a converge runs it.
	h.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: "module/a"}}, "Enqueue ReloadAllModules")
	if h.core.sit.skipped("a") {
		t.Fatal("a recovered module is still left out of discovery")
	}

	// Back before start-up has queued anything: the first converge has it.
	early := newCoreTest(t, CoreOptions{Modules: []layout.Definition{enabledDef(t, "001-a", true)}})
	early.Expect(ChildrenSpawned{Owners: []string{"module/a"}}, "TellReaders 1", "PublishUnseen")
	early.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: "module/a", Err: "bad --config"}})
	early.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: "module/a"}})
	if early.core.sit.skipped("a") {
		t.Fatal("a module back before start-up is left out")
	}

	g := newCoreTest(t, CoreOptions{})
	g.Expect(ChildrenSpawned{}, "TellReaders 0", "PublishUnseen")
	g.Expect(OwnerReady{Msg: messages.OwnerReady{Owner: messages.OwnerGlobal, Err: "exit 1"}}, "Fatal global hooks: exit 1")
}

// A core built Ready (the root restarted after the first converge, as the
// board says) is ready before any converge: a global hook's binding that
// cannot be watched is not fatal, and its next converge marks nothing
// ready again; one built before the first converge is told so.
func TestCoreBuiltReady(t *testing.T) {
	unwatched := KubeSynced{Msg: messages.KubeSynced{Owner: messages.OwnerGlobal, Err: "unknown kind"}}
	done := assigned(messages.Task{Kind: messages.TaskConvergeDone})
	restarted := newCoreTest(t, CoreOptions{Ready: true})
	restarted.Expect(ChildrenSpawned{}, "TellReaders 0", "PublishUnseen")
	restarted.Expect(unwatched)
	restarted.Expect(done, "Converged ReloadAllModules", "Finish ")

	first := newCoreTest(t, CoreOptions{})
	first.Expect(ChildrenSpawned{}, "TellReaders 0", "PublishUnseen")
	first.Expect(unwatched, "Fatal global hooks' kubernetes bindings: unknown kind")
	first.Expect(done, "MarkReady", "Converged ReloadAllModules", "Finish ")
}

// The lifecycle builds its core from what the board says: a root that
// restarts after the first converge (the board ready) starts ready.
func TestLifecycleBuildsReadyFromBoard(t *testing.T) {
	b := board.New()
	if newLifecycle(LifecycleOptions{Board: b}).core.ready {
		t.Fatal("a core built before the first converge is ready")
	}
	b.SetReady()
	if !newLifecycle(LifecycleOptions{Board: b}).core.ready {
		t.Fatal("a core built after the first converge is not ready")
	}
	if newLifecycle(LifecycleOptions{}).core.ready {
		t.Fatal("a core built without a board is ready")
	}
}

// After the first converge, discovery reads the modules dirs first: the
// actor of a gone module stops, one of a new module starts, and
// discovery waits for it; a set whose requirements form a cycle is
// refused and the last good set decides.
func TestCoreRescan(t *testing.T) {
	a, b, c := enabledDef(t, "001-a", true), enabledDef(t, "002-b", true), enabledDef(t, "003-c", true)
	h := newCoreTest(t, CoreOptions{Rescan: true, Modules: []layout.Definition{a, b}})
	h.Expect(ChildrenSpawned{Owners: []string{"module/a", "module/b"}}, "TellReaders 2", "PublishUnseen")
	h.Expect(assigned(messages.Task{Kind: messages.TaskConvergeDone}), "MarkReady", "Converged ReloadAllModules", "Finish ")
	h.Expect(assigned(messages.Task{Kind: messages.TaskConvergeDone}), "Converged ReloadAllModules", "Finish ")
	h.Expect(assigned(discoverTask), "ScanModules")
	h.Expect(ModulesScanned{Defs: []layout.Definition{a, c}, Gone: []string{"b"}}, "ModuleOut b removed", "SpawnModules c")
	// c's actor could not start: the core leaves it out of discovery.
	h.Expect(ModulesSpawned{Defs: []layout.Definition{c}, Failed: map[string]error{"c": errors.New("name taken")}},
		"TellReaders 2", "CheckEnabled a []")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "a", Enabled: true}}, "ListReleases")
	if h.core.LeftOut("c") == "" {
		t.Fatal("a module whose actor could not start is not left out")
	}
	if got := h.core.names(); !reflect.DeepEqual(got, []string{"a", "c"}) {
		t.Fatalf("modules %v", got)
	}

	h.Expect(assigned(discoverTask), "ScanModules")
	cycle := []layout.Definition{requires(a, "c"), requires(c, "a")}
	h.Expect(ModulesScanned{Defs: cycle}, "Count discover error", "PublishConverge", "CheckEnabled a []")
	if h.core.modulesError == "" || len(h.core.Modules()[0].Requirements.Modules) != 0 {
		t.Fatalf("cycle not refused: %q %v", h.core.modulesError, h.core.Modules())
	}
}

// A module actor that stops when nobody stopped it is marked failed: shown
// so, and left out of discovery (neither run nor deleted); another child
// that stops is only logged.
func TestCoreChildStopped(t *testing.T) {
	a, b := enabledDef(t, "001-a", true), enabledDef(t, "002-b", true)
	h := newCoreTest(t, CoreOptions{Modules: []layout.Definition{a, b}, Enabled: []string{"a", "b"}})
	h.Expect(ChildStopped{Name: ChildQueue, ID: "operator/queue"})
	h.Expect(ChildStopped{Name: ModuleChild("a"), ID: "operator/module/a"}, "ModuleOut a stopped")
	if got := h.core.LeftOut("a"); !strings.Contains(got, "its actor stopped unexpectedly") {
		t.Fatalf("LeftOut(a) = %q", got)
	}
	h.Expect(assigned(discoverTask), "CheckEnabled b []")
	h.Expect(EnabledAnswered{Msg: messages.EnabledChecked{Module: "b", Enabled: true}}, "ListReleases")
	h.Expect(ReleasesListed{Owned: []string{"a", "b"}, All: []string{"a", "b"}},
		"HoldEvents false", "Discovered [b] unmet=map[] decisions=2", "PublishEnabled", "Finish ModuleRun b, "+afterConverge)
}
