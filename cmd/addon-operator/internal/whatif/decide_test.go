package whatif

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// moduleDir is a module dir of a test: its enabled flag in its own
// values.yaml, its enabled script, the modules it requires.
type moduleDir struct {
	dir      string
	enabled  bool
	script   string // "", or the body of its enabled script
	requires []string
	chart    bool // a Chart.yaml (version 1.0.0), for those required
	// failsToStart: its actor cannot start (its hooks' --config);
	// dangling: the dir is a symlink to nowhere (it cannot be seen).
	failsToStart, dangling bool
	// configSchema is its openapi/config-values.yaml ("": none).
	configSchema string
}

// Enabled scripts: they say true, false, or true when module a is enabled
// before them (global.enabledModules).
const (
	scriptTrue  = `echo true > "$MODULE_ENABLED_RESULT"`
	scriptFalse = `echo false > "$MODULE_ENABLED_RESULT"`
	scriptNeedA = `if grep -q 'enabledModules":\[[^]]*"a"' "$VALUES_PATH"; then echo true; else echo false; fi > "$MODULE_ENABLED_RESULT"`
	// scriptReplicas3 says true when its module's replicas are 3, and
	// scriptFullMode when the global mode is full: the values' layers
	// (values files, ConfigMap sections, OpenAPI defaults) decide.
	scriptReplicas3 = `if grep -q '"replicas":3' "$VALUES_PATH"; then echo true; else echo false; fi > "$MODULE_ENABLED_RESULT"`
	scriptFullMode  = `if grep -q '"mode":"full"' "$VALUES_PATH"; then echo true; else echo false; fi > "$MODULE_ENABLED_RESULT"`
	// replicasDefault3 and replicasRequired are config-values.yaml schemas.
	replicasDefault3 = "type: object\nproperties:\n  replicas:\n    type: integer\n    default: 3\n"
	replicasRequired = "type: object\nrequired: [replicas]\nproperties:\n  replicas:\n    type: integer\n"
)

// TestPlanDecidesAsTheOperator: for a table of configurations, `plan`
// (the Planner, reading what the operator published after its last
// converge, with a candidate ConfigMap and the modules dirs as they are
// now) and the operator's own core (taking that ConfigMap, reading the
// dirs again and converging) decide the same: the same modules enabled,
// the same unmet requirements, the same runs (grouped alike in
// ParallelModuleRuns, by requirements or, with ParallelModuleRuns > 1, by
// weight), deletes (with their reasons) and purges, and the same values
// for the global scope and each run (the values files, the ConfigMap
// sections and the OpenAPI defaults layered as the actors layer them); a
// modules set whose requirements form a cycle is refused by both for the
// same reason.
func TestPlanDecidesAsTheOperator(t *testing.T) {
	a, b := moduleDir{dir: "001-a", enabled: true, chart: true}, moduleDir{dir: "002-b", enabled: true}
	c := moduleDir{dir: "003-c", enabled: true, script: scriptNeedA}
	cases := []struct {
		name      string
		before    []moduleDir
		after     []moduleDir // nil: as before
		live      map[string]string
		candidate map[string]string
		owned     []string
		parallel  int // the operator's ParallelModuleRuns
		// globalPatch is a global hook's values patch (JSON), applied
		// before the first converge.
		globalPatch string
		want        []string
		// refused: the modules dirs after are refused for this
		// requirements cycle (want is then what the operator queues).
		refused string
	}{
		{name: "nothing changes", before: []moduleDir{a, b, c}, owned: []string{"a", "b", "c"},
			want: []string{"run a", "run b", "run c"}},
		{name: "disabled by the ConfigMap, its dependent by its script", before: []moduleDir{a, b, c},
			candidate: map[string]string{"aEnabled": "false"}, owned: []string{"a", "b", "c"},
			want: []string{"run b", "delete a: disabled in ConfigMap key aEnabled",
				"delete c: disabled by its enabled script"}},
		{name: "enabled by the ConfigMap", before: []moduleDir{a, {dir: "002-b"}}, live: map[string]string{"b": "false"},
			candidate: map[string]string{"bEnabled": "true"}, want: []string{"run a", "run b"}},
		{name: "section false", before: []moduleDir{a, b}, candidate: map[string]string{"b": "false"},
			owned: []string{"b"}, want: []string{"run a", `delete b: disabled in ConfigMap key b ("false")`}},
		{name: "disabled by its enabled script", before: []moduleDir{a, {dir: "002-b", enabled: true, script: scriptTrue}},
			after: []moduleDir{a, {dir: "002-b", enabled: true, script: scriptFalse}}, owned: []string{"b"},
			want: []string{"run a", "delete b: disabled by its enabled script"}},
		{name: "unmet requirements", before: []moduleDir{a, {dir: "002-b", enabled: true, requires: []string{"a"}}},
			candidate: map[string]string{"aEnabled": "false"}, owned: []string{"a", "b"},
			want: []string{"delete a: disabled in ConfigMap key aEnabled",
				"delete b: turned off because of unmet requirements: dependency 'a' is disabled"}},
		{name: "a dir appears", before: []moduleDir{a}, after: []moduleDir{a, b, c},
			want: []string{"run a", "run b", "run c"}},
		{name: "a dir disappears", before: []moduleDir{a, b}, after: []moduleDir{a}, owned: []string{"a", "b"},
			want: []string{"run a", "purge b: module dir gone: no module b in the modules dirs"}},
		{name: "a module whose actor failed to start is left as it is", before: []moduleDir{a,
			{dir: "002-b", enabled: true, failsToStart: true}, {dir: "003-c", requires: []string{"b"}}},
			candidate: map[string]string{"bEnabled": "false"}, owned: []string{"a", "b", "c"},
			want: []string{"run a"}},
		{name: "a dir that cannot be seen keeps its module and release", before: []moduleDir{a, b},
			after: []moduleDir{a, {dir: "002-b", dangling: true}}, owned: []string{"a", "b"}, want: []string{"run a"}},
		{name: "requirements order the runs", before: []moduleDir{{dir: "001-x", enabled: true, requires: []string{"y"}},
			{dir: "002-y", enabled: true, chart: true}}, want: []string{"run y [1]", "run x [1]"}},
		{name: "an unmet requirement disables the module", before: []moduleDir{a, b, {dir: "003-c", enabled: true}},
			after: []moduleDir{a, b, {dir: "003-c", enabled: true, requires: []string{"z"}}}, owned: []string{"a", "b", "c"},
			want: []string{"run a", "run b", "delete c: turned off because of unmet requirements: dependency 'z' not found"}},
		{name: "runs of one weight in parallel", before: []moduleDir{a, b, {dir: "002-d", enabled: true}, c},
			owned: []string{"a", "b", "c", "d"}, parallel: 2, want: []string{"run a", "run b [1]", "run d [1]", "run c"}},
		{name: "parallel runs, one disabled", before: []moduleDir{a, b, {dir: "002-d", enabled: true}, {dir: "002-e", enabled: true}},
			candidate: map[string]string{"dEnabled": "false"}, owned: []string{"a", "b", "d", "e"}, parallel: 2,
			want: []string{"run a", "run b [1]", "run e [1]", "delete d: disabled in ConfigMap key dEnabled"}},
		{name: "a requirements cycle is refused", before: []moduleDir{a, b},
			after: []moduleDir{{dir: "001-a", enabled: true, chart: true, requires: []string{"b"}}, {dir: "002-b", enabled: true, chart: true, requires: []string{"a"}}},
			owned: []string{"a", "b"}, want: []string{"run a", "run b"}, refused: "module requirements form a cycle: a -> b -> a"},
		{name: "enabled by a value of its ConfigMap section", before: []moduleDir{a, {dir: "002-b", enabled: true, script: scriptReplicas3}},
			live: map[string]string{"b": "replicas: 1"}, candidate: map[string]string{"b": "replicas: 3"}, owned: []string{"a"},
			want: []string{"run a", "run b"}},
		{name: "enabled by the global section", before: []moduleDir{a, {dir: "002-b", enabled: true, script: scriptFullMode}},
			live: map[string]string{"global": "mode: lite"}, candidate: map[string]string{"global": "mode: full"}, owned: []string{"a"},
			want: []string{"run a", "run b"}},
		{name: "a global hook's patch stays over the global section", before: []moduleDir{a,
			{dir: "002-b", enabled: true, script: scriptFullMode}}, globalPatch: `[{"op":"add","path":"/global/mode","value":"full"}]`,
			live: map[string]string{"global": "mode: full"}, candidate: map[string]string{"global": "mode: lite\nsize: 2"},
			owned: []string{"a", "b"}, want: []string{"run a", "run b"}},
		{name: "a default of its schema, then a section over it", before: []moduleDir{a,
			{dir: "002-b", enabled: true, script: scriptReplicas3, configSchema: replicasDefault3}},
			candidate: map[string]string{"b": "replicas: 1"}, owned: []string{"a", "b"},
			want: []string{"run a", "delete b: disabled by its enabled script"}},
		{name: "a setting its schema requires comes with the ConfigMap", before: []moduleDir{a,
			{dir: "002-b", enabled: true, script: scriptReplicas3, configSchema: replicasRequired}},
			live: map[string]string{"b": "replicas: 3"}, owned: []string{"a", "b"}, want: []string{"run a", "run b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.before, tc.owned, tc.parallel)
			w.globalPatch = tc.globalPatch
			w.converge(t, tc.live)
			if tc.after != nil {
				w.layout(t, tc.after)
			}
			if tc.candidate == nil {
				tc.candidate = map[string]string{}
				maps.Copy(tc.candidate, tc.live)
			}
			plan, err := w.planner().Plan(context.Background(), Request{Data: tc.candidate})
			if err != nil {
				t.Fatal(err)
			}
			byOperator := w.reconverge(t, tc.candidate)
			if tc.refused != "" {
				refusedAlike(t, plan, byOperator, tc.want, tc.refused)
				return
			}
			if got := planned(plan); !reflect.DeepEqual(got, byOperator.tasks) || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("plan decides\n%q\nthe operator\n%q\nwant\n%q", got, byOperator.tasks, tc.want)
			}
			if !reflect.DeepEqual(plan.Enabled, byOperator.enabled) || !reflect.DeepEqual(plan.Unmet, byOperator.unmet) {
				t.Fatalf("plan enables %v (unmet %v), the operator %v (unmet %v)", plan.Enabled, plan.Unmet, byOperator.enabled, byOperator.unmet)
			}
			valuesAlike(t, w, plan)
		})
	}
}

// refusedAlike: the operator refused the modules dirs for the cycle (and
// went on with its last good set, want), and the plan is invalid for the
// same reason, without runs.
func refusedAlike(t *testing.T, plan Plan, byOperator converged, want []string, cycle string) {
	t.Helper()
	if byOperator.refused != cycle || !reflect.DeepEqual(byOperator.tasks, want) {
		t.Fatalf("the operator refused %q and queued %q, want %q and %q", byOperator.refused, byOperator.tasks, cycle, want)
	}
	wantErr := []Problem{{Key: "modules dirs", Error: byOperator.refused}}
	if plan.Valid || !reflect.DeepEqual(plan.Errors, wantErr) || len(plan.Modules)+len(plan.Purges) > 0 {
		t.Fatalf("plan valid %t, errors %q, runs %v, purges %v; want invalid for %q, no runs", plan.Valid, plan.Errors,
			plan.Modules, plan.Purges, byOperator.refused)
	}
}

// planned writes a plan's module runs, deletes and purges in queue order.
func planned(p Plan) []string {
	out := []string{}
	for _, m := range p.Modules {
		out = append(out, strings.TrimSuffix(m.Action+" "+m.Name+inGroup(m.Group)+": "+m.Reason, ": "))
	}
	for _, m := range p.Purges {
		out = append(out, "purge "+m.Module+": "+m.Reason)
	}
	return out
}

// world is a modules dir, the operator's core converging it, and the
// board it publishes to, as the lifecycle would.
type world struct {
	dir    string
	owned  []string
	core   *operator.Core
	board  *board.Board
	runner *hookexec.Runner
	config values.Sections
	// failing are the modules whose actor fails to start.
	failing  map[string]bool
	parallel int // ParallelModuleRuns
	// globalPatch is the global hooks' in-memory patch ("": none).
	globalPatch string
}

func newWorld(t *testing.T, mods []moduleDir, owned []string, parallel int) *world {
	w := &world{dir: t.TempDir(), owned: owned, board: board.New(), failing: map[string]bool{}, parallel: parallel,
		runner: hookexec.NewRunner(hookexec.Options{TmpDir: t.TempDir(), Environ: os.Environ()})}
	t.Cleanup(w.runner.Close) // before its temp dir goes: it may be making run dirs ahead
	w.layout(t, mods)
	for _, m := range mods {
		if m.failsToStart {
			names, _ := values.ParseModuleDir(m.dir)
			w.failing[names.Name] = true
		}
	}
	return w
}

// layout makes the modules dir hold mods (and nothing else).
func (w *world) layout(t *testing.T, mods []moduleDir) {
	t.Helper()
	entries, _ := os.ReadDir(w.dir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(w.dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range mods {
		names, err := values.ParseModuleDir(m.dir)
		if err != nil {
			t.Fatal(err)
		}
		if m.dangling {
			if err := os.Symlink(filepath.Join(w.dir, "nowhere"), filepath.Join(w.dir, m.dir)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		files := map[string]string{"values.yaml": names.EnabledKey + ": " + map[bool]string{true: "true", false: "false"}[m.enabled] + "\n"}
		if m.script != "" {
			files["enabled"] = "#!/bin/sh\n" + m.script + "\n"
		}
		if len(m.requires) > 0 {
			yaml := "requirements:\n  modules:\n"
			for _, r := range m.requires {
				yaml += "    " + r + ": '>= 1.0.0'\n"
			}
			files["module.yaml"] = yaml
		}
		if m.configSchema != "" {
			files["openapi/config-values.yaml"] = m.configSchema
		}
		if m.chart {
			files["Chart.yaml"] = "apiVersion: v2\nname: " + names.Name + "\nversion: 1.0.0\n"
		}
		writeFiles(t, filepath.Join(w.dir, m.dir), files)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func (w *world) scan() ([]layout.Definition, []error) {
	return layout.Scan([]string{w.dir}, values.Sections{})
}

// planner is `plan` on the board the operator published.
func (w *world) planner() *Planner {
	return New(Options{Board: w.board, Scan: w.scan, Helm: releaseList{owned: w.owned}, Enabled: w.runner,
		ParallelModuleRuns: w.parallel, Log: slog.New(slog.DiscardHandler)})
}

// converged is what a converge of the operator's core decided.
type converged struct {
	enabled []string
	unmet   map[string][]string
	tasks   []string
	refused string // why the modules dirs were refused
}

// converge starts the operator's core on the modules dir and the live
// ConfigMap and runs its first converge.
func (w *world) converge(t *testing.T, live map[string]string) {
	t.Helper()
	defs, errs := w.scan()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w.core = operator.NewCore(operator.CoreOptions{Rescan: true, ParallelModuleRuns: w.parallel, Modules: defs})
	var owners []string
	for _, d := range defs {
		owners = append(owners, messages.ModuleOwner(d.Names.Name))
		if w.failing[d.Names.Name] {
			w.board.SetModule(board.ModuleState{Name: d.Names.Name, Phase: board.PhaseFailed})
			continue
		}
		w.board.SetModule(board.ModuleState{Name: d.Names.Name})
	}
	w.step(t, operator.ChildrenSpawned{Owners: owners})
	for name := range w.failing {
		w.step(t, operator.OwnerReady{Msg: messages.OwnerReady{Owner: messages.ModuleOwner(name), Err: "bad --config"}})
	}
	w.step(t, operator.ConfigChanged{Msg: messages.ConfigChanged{Initial: true, Config: w.parse(t, live)}})
	w.step(t, operator.OwnerReady{Msg: messages.OwnerReady{Owner: messages.OwnerGlobal}})
	for _, owner := range append(owners, messages.OwnerGlobal) {
		w.step(t, operator.ConfigApplied{Msg: messages.ConfigApplied{Owner: owner}})
	}
	w.discover(t)
	w.step(t, operator.TaskAssigned{Assigned: hookrun.Assigned{Task: messages.Task{Kind: messages.TaskConvergeDone}}})
	w.board.SetGlobal(w.global(t).Snapshot(), nil)
	w.board.SetPatches(messages.OwnerGlobal, hookrun.PatchesJSON(w.global(t)))
	for _, def := range w.core.Modules() {
		w.board.SetModuleValues(def.Names.Name, w.module(def).Snapshot())
	}
}

// reconverge hands the core the candidate ConfigMap and runs the
// converge it queues (its discovery reads the modules dirs again).
func (w *world) reconverge(t *testing.T, candidate map[string]string) converged {
	t.Helper()
	w.step(t, operator.ConfigChanged{Msg: messages.ConfigChanged{Config: w.parse(t, candidate)}})
	return w.discover(t)
}

func (w *world) parse(t *testing.T, data map[string]string) values.Sections {
	t.Helper()
	s, err := configmap.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	w.config = s
	return s
}

// discover runs a discovery task to its end.
func (w *world) discover(t *testing.T) converged {
	t.Helper()
	var out converged
	task := messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator}
	for _, e := range w.step(t, operator.TaskAssigned{Assigned: hookrun.Assigned{Task: task}}) {
		switch e := e.(type) {
		case operator.Discovered:
			out.enabled, out.unmet = append([]string{}, e.Enabled...), e.Unmet
		case operator.FinishTask:
			out.tasks = decided(e.Done)
		case operator.PublishConverge:
			out.refused = e.State.ModulesError
		}
	}
	if len(out.unmet) == 0 {
		out.unmet = nil
	}
	return out
}

// step feeds the core an event and plays the lifecycle and the module
// actors for the effects that ask something, depth first; it returns the
// effects of the whole conversation.
func (w *world) step(t *testing.T, ev operator.Event) []operator.Effect {
	t.Helper()
	var all []operator.Effect
	for _, e := range w.core.Step(ev, operator.Env{}) {
		all = append(all, e)
		if next := w.answer(t, e); next != nil {
			all = append(all, w.step(t, next)...)
		}
	}
	return all
}

// answer is what the lifecycle or a module actor answers an effect with
// (nil: nothing); the effects that publish go to the board.
func (w *world) answer(t *testing.T, e operator.Effect) operator.Event {
	t.Helper()
	switch e := e.(type) {
	case operator.CheckEnabled:
		return operator.EnabledAnswered{Msg: w.checkEnabled(t, e)}
	case operator.ListReleases:
		return operator.ReleasesListed{Owned: w.owned, All: w.owned}
	case operator.ScanModules:
		defs, errs := w.scan()
		var gone []string
		for name, dir := range e.Known {
			if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
				gone = append(gone, name)
			}
		}
		return operator.ModulesScanned{Defs: defs, Errs: errs, Gone: gone}
	case operator.SpawnModules:
		for _, d := range e.Defs {
			w.board.SetModule(board.ModuleState{Name: d.Names.Name})
		}
		return operator.ModulesSpawned{}
	case operator.PublishEnabled:
		w.board.SetEnabledModules(e.Enabled)
	case operator.PublishUnseen:
		w.board.SetDirErrors(e.Unseen)
	case operator.MarkReady:
		w.board.SetReady()
	}
	return nil
}

// checkEnabled runs a module's enabled script as its actor does: with its
// values (its section of the ConfigMap) and the modules enabled before it.
func (w *world) checkEnabled(t *testing.T, e operator.CheckEnabled) messages.EnabledChecked {
	t.Helper()
	var def layout.Definition
	for _, d := range w.core.Modules() {
		if d.Names.Name == e.Module {
			def = d
		}
	}
	script, ok, err := hookexec.EnabledScript(def.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return messages.EnabledChecked{Module: e.Module, Enabled: true}
	}
	in := values.ModuleHookInput(w.global(t).Snapshot(), w.module(def).Snapshot(), e.EnabledBefore)
	vals, _ := json.Marshal(in.Values)
	cfg, _ := json.Marshal(in.ConfigValues)
	res, err := w.runner.RunEnabled(context.Background(), hookexec.EnabledRequest{Script: script, Values: vals, ConfigValues: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return messages.EnabledChecked{Module: e.Module, Enabled: res.Enabled != nil && *res.Enabled}
}

// global is the global actor's scope: its values files (none here), its
// hooks' patch, then the ConfigMap's global section as the actor takes it.
func (w *world) global(t *testing.T) values.Scope {
	t.Helper()
	scope, _ := values.NewGlobalScope(nil)
	if w.globalPatch != "" {
		p, err := jsonpatch.DecodePatch([]byte(w.globalPatch))
		var applied hookrun.Applied
		if err == nil {
			applied, err = hookrun.Apply(scope, "g.sh", hookexec.Result{ValuesPatch: p})
		}
		if err != nil {
			t.Fatal(err)
		}
		scope = applied.Scope
	}
	scope, _ = hookrun.ApplySection(scope, messages.OwnerGlobal, w.config.Global)
	return scope
}

// module is a module actor's scope: its values files and schemas, then
// its ConfigMap section as the actor takes it (a section it refuses
// leaves the scope as it was).
func (w *world) module(def layout.Definition) values.Scope {
	scope, _ := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own)
	var section any
	if s, ok := w.config.Modules[def.Names.ValuesKey]; ok {
		section = s
	}
	scope, _ = hookrun.ApplySection(scope, messages.ModuleOwner(def.Names.Name), section)
	return scope
}

// valuesAlike: the plan is valid, and its global values and each run's
// values are those the actors hold after taking the candidate.
func valuesAlike(t *testing.T, w *world, plan Plan) {
	t.Helper()
	if !plan.Valid {
		t.Fatalf("plan invalid: %q", plan.Errors)
	}
	if want := w.global(t).Values(); !values.Equal(plan.Global.Values, want) {
		t.Fatalf("plan's global values %v, the actor's %v", plan.Global.Values, want)
	}
	for _, m := range plan.Modules {
		for _, def := range w.core.Modules() {
			if want := w.module(def).Values(); m.Action == ActionRun && def.Names.Name == m.Name && !values.Equal(m.Values, want) {
				t.Fatalf("plan's values of %s %v, the actor's %v", m.Name, m.Values, want)
			}
		}
	}
}

// decided writes a discovery's module runs (a graph's in run order),
// deletes and purges as planned writes a plan's.
func decided(d messages.TaskDone) []string {
	out := []string{}
	for _, task := range runsOneByOne(d.Next) {
		switch task.Kind {
		case messages.TaskModuleRun:
			out = append(out, "run "+task.Module+inGroup(task.group))
		case messages.TaskModuleDelete:
			out = append(out, "delete "+task.Module+": "+task.Reason)
		case messages.TaskModulePurge:
			out = append(out, "purge "+task.Module+": "+task.Reason)
		}
	}
	return out
}

// inGroup writes the ParallelModuleRun a run is one of (none: "").
func inGroup(group int) string {
	if group == 0 {
		return ""
	}
	return fmt.Sprintf(" [%d]", group)
}

// releaseList is helm as a plan of these modules reads it: the releases
// in the namespace, none deployed with a manifest (the charts have no
// templates), rendering nothing.
type releaseList struct{ owned []string }

func (r releaseList) Render(context.Context, string, string, map[string]any) (string, error) {
	return "", nil
}

func (r releaseList) DeployedRelease(context.Context, string) (chartrun.Deployed, bool, error) {
	return chartrun.Deployed{}, false, nil
}

func (r releaseList) ReleaseNames(context.Context) (chartrun.ReleaseNames, error) {
	return chartrun.ReleaseNames{Owned: r.owned, All: r.owned}, nil
}
