package hookrun_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/values"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func mustHook(t *testing.T, name, config string) hookrun.Hook {
	t.Helper()
	cfg, err := hookconfig.Parse([]byte(config), bindings.ScopeModule)
	if err != nil {
		t.Fatal(err)
	}
	return hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: cfg}
}

func demoScope(t *testing.T) values.Scope {
	t.Helper()
	names, err := values.ParseModuleDir("010-demo")
	if err != nil {
		t.Fatal(err)
	}
	scope, err := values.NewModuleScope(names, nil, values.Sections{Modules: map[string]any{"demo": map[string]any{"list": []any{"a"}}}})
	if err != nil {
		t.Fatal(err)
	}
	return scope
}

func patch(t *testing.T, ops string) hookexec.Result {
	t.Helper()
	p, err := hookexec.ParsePatch([]byte(ops), hookexec.PatchScope{RootKey: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	return hookexec.Result{ValuesPatch: p}
}

func kinds(effects []hookrun.Effect) []string {
	out := make([]string, 0, len(effects))
	for _, e := range effects {
		out = append(out, reflect.TypeOf(e).Name())
	}
	return out
}

func wantKinds(t *testing.T, step string, got []hookrun.Effect, want ...string) {
	t.Helper()
	if g := kinds(got); !reflect.DeepEqual(g, want) && !(len(g) == 0 && len(want) == 0) {
		t.Fatalf("%s: effects %v, want %v", step, g, want)
	}
}

const (
	startupHook = `{"configVersion":"v1","onStartup":1,"beforeHelm":1}`
	kubeHook    = `{"configVersion":"v1","beforeHelm":1,"kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod"}]}`
	pacedHook   = `{"configVersion":"v1","beforeHelm":1,"settings":{"executionMinInterval":"10s"}}`
)

// TestRunStages walks the stages of a run for each kind of hook: the
// effects in order, and the binding context the hook gets.
func TestRunStages(t *testing.T) {
	snaps := bctx.Snapshots{"pods": {{Object: json.RawMessage(`{"kind":"Pod"}`)}}}
	for _, tc := range []struct {
		name, config, binding string
		withKube              bool
		events                []hookrun.Event
		want                  [][]string
		context               string
	}{
		{name: "onStartup runs at once", config: startupHook, binding: "onStartup",
			want: [][]string{{"RunHook"}}, context: `[{"binding":"onStartup"}]`},
		{name: "beforeHelm of a kube hook waits for its snapshots", config: kubeHook, binding: "beforeHelm", withKube: true,
			events:  []hookrun.Event{hookrun.SnapshotsRead{Snapshots: snaps}},
			want:    [][]string{{"GetSnapshots"}, {"RunHook"}},
			context: `[{"binding":"beforeHelm","snapshots":{"pods":[{"object":{"kind":"Pod"}}]}}]`},
		{name: "without a kube actor there are no snapshots", config: kubeHook, binding: "beforeHelm",
			want: [][]string{{"RunHook"}}, context: `[{"binding":"beforeHelm","snapshots":{"pods":[]}}]`},
		{name: "a snapshot reply out of turn is ignored", config: startupHook, binding: "beforeHelm",
			events: []hookrun.Event{hookrun.SnapshotsRead{Snapshots: snaps}},
			want:   [][]string{{"RunHook"}, nil}, context: `[{"binding":"beforeHelm","snapshots":{}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &hookrun.Run{WithKube: tc.withKube, Paced: true}
			now := hookrun.Env{Now: epoch}
			got := [][]hookrun.Effect{r.Step(hookrun.Begin{Hook: mustHook(t, "h.sh", tc.config),
				Info: hookrun.RunInfoOf(tc.binding, "", false, "")}, now)}
			for _, ev := range tc.events {
				got = append(got, r.Step(ev, now))
			}
			for i := range tc.want {
				wantKinds(t, "step "+string(rune('0'+i)), got[i], tc.want[i]...)
			}
			for _, effects := range got {
				for _, e := range effects {
					if rh, ok := e.(hookrun.RunHook); ok {
						if string(rh.Request.BindingContext) != tc.context {
							t.Errorf("binding context %s, want %s", rh.Request.BindingContext, tc.context)
						}
					}
				}
			}
			if r.Stage != hookrun.Running {
				t.Errorf("stage %d, want Running", r.Stage)
			}
		})
	}
}

// running returns a run of h that is Running.
func running(t *testing.T, config string) *hookrun.Run {
	t.Helper()
	r := &hookrun.Run{Paced: true}
	wantKinds(t, "begin", r.Step(hookrun.Begin{Hook: mustHook(t, "h.sh", config), Info: hookrun.RunInfoOf("beforeHelm", "", false, "")}, hookrun.Env{Now: epoch}), "RunHook")
	return r
}

// TestRunAppliesTheValuesPatchOnce: a hook that appends to a list and
// writes a config patch gets its values patch applied once, when it
// returns; the ConfigMap write ends the run without applying it again,
// even when the echo of the write changed the owner's scope meanwhile.
func TestRunAppliesTheValuesPatchOnce(t *testing.T) {
	r := running(t, startupHook)
	res := patch(t, `[{"op":"add","path":"/demo/list/-","value":"x"}]`)
	cfg, err := hookexec.ParsePatch([]byte(`[{"op":"add","path":"/demo/replicas","value":2}]`), hookexec.PatchScope{RootKey: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	res.ConfigValuesPatch = cfg
	effects := r.Step(hookrun.HookDone{Result: res}, hookrun.Env{Scope: demoScope(t)})
	wantKinds(t, "hook done", effects, "Ran", "Committed", "WriteConfigPatch")
	committed := effects[1].(hookrun.Committed)
	want := map[string]any{"list": []any{"a", "x"}, "replicas": float64(2)}
	if got := committed.Scope.Values(); !jsonEqual(got, want) || !committed.ValuesChanged {
		t.Fatalf("committed values %v (changed %t), want %v", got, committed.ValuesChanged, want)
	}
	if w := effects[2].(hookrun.WriteConfigPatch); string(w.Patch) != `[{"op":"add","path":"/demo/replicas","value":2}]` {
		t.Errorf("config patch %s", w.Patch)
	}
	if r.Stage != hookrun.WritingConfig {
		t.Fatalf("stage %d, want WritingConfig", r.Stage)
	}
	wantKinds(t, "written", r.Step(hookrun.ConfigWritten{}, hookrun.Env{}), "Finished")
	if ops := committed.Scope.Patches().Operations(); len(ops) != 1 {
		t.Errorf("patch layer %v, want the one operation", ops)
	}
	if r.Stage != hookrun.Idle {
		t.Errorf("stage %d, want Idle", r.Stage)
	}
}

// TestRunEnds covers the ways a run ends: with or without patches, a
// failed hook, a patch the scope rejects, a failed config write.
func TestRunEnds(t *testing.T) {
	failed := errors.New("exit status 1")
	for _, tc := range []struct {
		name    string
		done    hookrun.HookDone
		write   *hookrun.ConfigWritten
		want    []string
		wantErr string
	}{
		{name: "no patch", want: []string{"Ran", "Committed", "Finished"}},
		{name: "values patch", done: hookrun.HookDone{Result: patch(t, `[{"op":"add","path":"/demo/x","value":1}]`)},
			want: []string{"Ran", "Committed", "Finished"}},
		{name: "hook failed", done: hookrun.HookDone{Err: failed}, want: []string{"Ran", "Finished"},
			wantErr: "hook h.sh: exit status 1"},
		{name: "patch rejected", done: hookrun.HookDone{Result: patch(t, `[{"op":"add","path":"/demo/list/7","value":1}]`)},
			want: []string{"Ran", "Finished"}, wantErr: "hook h.sh: values patch"},
		{name: "config write failed", done: hookrun.HookDone{Result: hookexec.Result{ConfigValuesPatch: patch(t,
			`[{"op":"add","path":"/demo/x","value":1}]`).ValuesPatch}},
			write: &hookrun.ConfigWritten{Err: "conflict"}, want: []string{"Finished"}, wantErr: "write config patch: conflict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := running(t, startupHook)
			effects := r.Step(tc.done, hookrun.Env{Scope: demoScope(t)})
			if tc.write != nil {
				effects = r.Step(*tc.write, hookrun.Env{})
			}
			wantKinds(t, "end", effects, tc.want...)
			fin := effects[len(effects)-1].(hookrun.Finished)
			if (fin.Err == nil) != (tc.wantErr == "") || fin.Err != nil && !strings.Contains(fin.Err.Error(), tc.wantErr) {
				t.Errorf("finished with %v, want %q", fin.Err, tc.wantErr)
			}
			if r.Stage != hookrun.Idle {
				t.Errorf("stage %d, want Idle", r.Stage)
			}
		})
	}
}

// TestRunRateLimit: with executionMinInterval 10s the second run within
// the interval waits for its token through a timer, then runs.
func TestRunRateLimit(t *testing.T) {
	r := &hookrun.Run{Paced: true}
	h := mustHook(t, "h.sh", pacedHook)
	begin := func(at time.Duration) []hookrun.Effect {
		return r.Step(hookrun.Begin{Hook: h, Info: hookrun.RunInfoOf("beforeHelm", "", false, "")}, hookrun.Env{Now: epoch.Add(at)})
	}
	wantKinds(t, "first", begin(0), "RunHook")
	r.Step(hookrun.HookDone{}, hookrun.Env{Scope: demoScope(t)})
	effects := begin(4 * time.Second)
	wantKinds(t, "second", effects, "ArmTimer")
	if wait := effects[0].(hookrun.ArmTimer).Wait; wait != 6*time.Second {
		t.Errorf("wait %s, want 6s", wait)
	}
	wantKinds(t, "busy", begin(5*time.Second), "Finished")
	wantKinds(t, "token", r.Step(hookrun.TokenArrived{}, hookrun.Env{}), "RunHook")
	wantKinds(t, "token again", r.Step(hookrun.TokenArrived{}, hookrun.Env{}))
	unpaced := &hookrun.Run{}
	for range 3 {
		wantKinds(t, "unpaced", unpaced.Step(hookrun.Begin{Hook: h, Info: hookrun.RunInfoOf("beforeHelm", "", false, "")}, hookrun.Env{Now: epoch}), "RunHook")
		unpaced.Step(hookrun.HookDone{}, hookrun.Env{Scope: demoScope(t)})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
