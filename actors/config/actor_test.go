package config_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

const patience = 10 * time.Second

type counter struct{ n atomic.Int64 }

func (c *counter) Inc() { c.n.Add(1) }

// configEnv is a config actor on a fresh namespace of the real cluster,
// reporting to a probe.
type configEnv struct {
	kit    *actortest.Kit
	probe  *actortest.Probe
	client kubernetes.Interface
	ns     string
	errors *counter
	pid    *actor.PID
	opts   config.Options
}

func startConfig(t *testing.T, initial map[string]string, opts ...func(*config.Options)) (*configEnv, *actortest.Kit) {
	t.Helper()
	store, client, ns := newStore(t, initial)
	kit := actortest.New(t)
	env := &configEnv{kit: kit, probe: kit.NewProbe(), client: client, ns: ns, errors: &counter{}}
	env.opts = config.Options{Source: store, Writer: store, Report: env.probe.PID, Errors: env.errors}
	for _, o := range opts {
		o(&env.opts)
	}
	env.pid = kit.Spawn("config", config.New(env.opts))
	return env, kit
}

func expectChange(t *testing.T, env *configEnv, want values.Change) messages.ConfigChanged {
	t.Helper()
	got := actortest.Expect[messages.ConfigChanged](env.probe, patience)
	if !reflect.DeepEqual(got.Change, want) {
		t.Fatalf("change %+v, want %+v", got.Change, want)
	}
	return got
}

// answerCheck plays an owner asked about a change's section: it expects a
// CheckConfig and answers it with reason (empty: it would take it).
func answerCheck(t *testing.T, env *configEnv, owner *actortest.Probe, name, reason string) messages.CheckConfig {
	t.Helper()
	r := owner.Receive(patience)
	check, ok := r.Message.(messages.CheckConfig)
	if !ok {
		t.Fatalf("%s got %T %+v, want CheckConfig", name, r.Message, r.Message)
	}
	env.kit.Send(r.Sender, messages.ConfigChecked{Owner: name, Round: check.Round, Err: reason})
	return check
}

func TestConfigActorReportsWhatChanged(t *testing.T) {
	env, _ := startConfig(t, nil)
	first := expectChange(t, env, values.Change{})
	if !first.Initial || first.Config.Global != nil {
		t.Fatalf("absent ConfigMap: %+v, want initial empty config", first)
	}

	putConfigMap(t, env.client, env.ns, map[string]string{
		"global": "a: 1\n", "fooBar": "x: [1, 2]\n", "baz": "y: true\n", "bazEnabled": "false"})
	got := expectChange(t, env, values.Change{Global: true, Enabled: []string{"baz"}, Modules: []string{"baz", "fooBar"}})
	if got.Initial || got.Config.Modules["fooBar"].(map[string]any)["x"] == nil {
		t.Fatalf("created: %+v", got)
	}

	// Formatting only: no report. The next edit proves it, as its report
	// is the one that arrives next.
	putConfigMap(t, env.client, env.ns, map[string]string{
		"global": "a:   1\n", "fooBar": "x:\n- 1\n- 2\n", "baz": "y: true\n", "bazEnabled": "false"})
	putConfigMap(t, env.client, env.ns, map[string]string{
		"global": "a: 1\n", "fooBar": "x: [1, 2]\n", "baz": "y: false\n", "bazEnabled": "false"})
	expectChange(t, env, values.Change{Modules: []string{"baz"}})
}

type gauge struct{ v atomic.Value }

func (g *gauge) Set(v float64) { g.v.Store(v) }

func (g *gauge) get() float64 {
	v, _ := g.v.Load().(float64)
	return v
}

// A ConfigMap deleted while the operator runs is an accident: no report
// (the last good configuration stays), the gauge and the board say it is
// missing; recreated, its content is reported as a change against the last
// good configuration, and the gauge goes back to 0.
func TestConfigActorKeepsLastGoodConfigWhileDeleted(t *testing.T) {
	env, _ := startConfig(t, map[string]string{"global": "a: 1\n", "fooBarEnabled": "true"}, func(o *config.Options) {
		o.Board, o.Missing, o.Name = board.New(), &gauge{}, "ns/addon-operator"
	})
	expectChange(t, env, values.Change{Global: true, Enabled: []string{"fooBar"}})
	if st := env.opts.Board.Config(); st.Missing || st.ConfigMap != "ns/addon-operator" {
		t.Fatalf("board %+v, want present ns/addon-operator", st)
	}
	cms := env.client.CoreV1().ConfigMaps(env.ns)
	if err := cms.Delete(context.Background(), "addon-operator", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitBoard(t, env.opts.Board, func(st board.ConfigState) bool { return st.Missing && st.Since != "" })
	if got := env.opts.Missing.(*gauge).get(); got != 1 {
		t.Fatalf("gauge %v while deleted, want 1", got)
	}
	// Had the deletion been reported, that report would come first here.
	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 1\n", "bazEnabled": "true"})
	got := expectChange(t, env, values.Change{Enabled: []string{"baz", "fooBar"}})
	if !got.Config.Enabled["baz"] || got.Config.Enabled["fooBar"] {
		t.Fatalf("recreated: %+v", got.Config.Enabled)
	}
	if st := env.opts.Board.Config(); st.Missing || env.opts.Missing.(*gauge).get() != 0 {
		t.Fatalf("after recreate: board %+v gauge %v, want not missing", st, env.opts.Missing.(*gauge).get())
	}
}

func waitBoard(t *testing.T, b *board.Board, cond func(board.ConfigState) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := b.WaitFor(ctx, func(b *board.Board) bool { return cond(b.Config()) }); err != nil {
		t.Fatalf("board config %+v: %v", b.Config(), err)
	}
}

func TestConfigActorKeepsLastGoodConfig(t *testing.T) {
	env, _ := startConfig(t, map[string]string{"global": "a: 1\n"})
	expectChange(t, env, values.Change{Global: true})

	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: [1\n"})
	bad := actortest.Expect[messages.ConfigInvalid](env.probe, patience)
	if bad.Initial || bad.Err == "" || env.errors.n.Load() != 1 {
		t.Fatalf("invalid edit: %+v, errors counted %d", bad, env.errors.n.Load())
	}
	// Back to the last good content: nothing changed against it.
	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 1\n", "fooBar": "b: 2\n"})
	expectChange(t, env, values.Change{Modules: []string{"fooBar"}})
}

func TestConfigActorInitialInvalidConfig(t *testing.T) {
	env, _ := startConfig(t, map[string]string{"global": "- not\n- a map\n"})
	bad := actortest.Expect[messages.ConfigInvalid](env.probe, patience)
	if !bad.Initial {
		t.Fatalf("invalid at start-up: %+v, want Initial", bad)
	}
}

func TestConfigActorWritesPatches(t *testing.T) {
	env, kit := startConfig(t, map[string]string{"notes.txt": "kept as is"})
	expectChange(t, env, values.Change{})
	hook := kit.NewProbe()

	hook.Send(env.pid, messages.ConfigPatch{Hook: "global/hooks/a.sh",
		Patch: []byte(`[{"op":"add","path":"/global/clusterName","value":"c1"},{"op":"add","path":"/fooBarEnabled","value":true}]`)})
	if done := actortest.Expect[messages.ConfigPatchDone](hook, patience); !done.Changed || done.Err != "" {
		t.Fatalf("patch reply %+v", done)
	}
	got := expectChange(t, env, values.Change{Global: true, Enabled: []string{"fooBar"}})
	if got.Config.Global["clusterName"] != "c1" || !got.Config.Enabled["fooBar"] {
		t.Fatalf("after patch: %+v", got.Config)
	}
	cm, err := env.client.CoreV1().ConfigMaps(env.ns).Get(context.Background(), "addon-operator", metav1.GetOptions{})
	if err != nil || cm.Data["notes.txt"] != "kept as is" {
		t.Fatalf("unknown key after patch: %v %v", cm.Data, err)
	}

	hook.Send(env.pid, messages.ConfigPatch{Hook: "bad", Patch: []byte(`{"op":"add"}`)})
	if done := actortest.Expect[messages.ConfigPatchDone](hook, patience); done.Err == "" {
		t.Fatalf("malformed patch accepted: %+v", done)
	}
}

// A hook's config patch while the ConfigMap is missing recreates it from
// the last good data with the patch applied, not from the patch alone: a
// module enabled only in the lost content stays enabled.
func TestConfigPatchWhileMissingRecreatesFromLastGood(t *testing.T) {
	env, kit := startConfig(t, map[string]string{"global": "a: 1\n", "fooBarEnabled": "true"}, func(o *config.Options) {
		o.Board, o.Name = board.New(), "ns/addon-operator"
	})
	expectChange(t, env, values.Change{Global: true, Enabled: []string{"fooBar"}})
	if err := env.client.CoreV1().ConfigMaps(env.ns).Delete(context.Background(), "addon-operator", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitBoard(t, env.opts.Board, func(st board.ConfigState) bool { return st.Missing })
	hook := kit.NewProbe()
	hook.Send(env.pid, messages.ConfigPatch{Hook: "global/hooks/a.sh", Patch: []byte(`[{"op":"add","path":"/global/b","value":2}]`)})
	if done := actortest.Expect[messages.ConfigPatchDone](hook, patience); !done.Changed || done.Err != "" {
		t.Fatalf("patch reply %+v", done)
	}
	got := expectChange(t, env, values.Change{Global: true})
	if !got.Config.Enabled["fooBar"] || got.Config.Global["a"] != float64(1) || got.Config.Global["b"] != float64(2) {
		t.Fatalf("recreated by the patch: %+v", got.Config)
	}
	waitBoard(t, env.opts.Board, func(st board.ConfigState) bool { return !st.Missing })
}
