package board_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Each publication is read back as stored, and an empty board reads as
// the documented defaults.
func TestPublications(t *testing.T) {
	tests := []struct {
		name    string
		publish func(*board.Board)
		read    func(*board.Board) any
		empty   any
		want    any
	}{
		{"global", func(b *board.Board) {
			b.SetGlobal(values.Snapshot{Key: values.GlobalKey, Values: map[string]any{"a": 1.0}}, map[string]bool{"m": true})
		}, func(b *board.Board) any { return []any{b.Global().Values, b.DynamicEnabled()} },
			[]any{nil, map[string]bool(nil)}, []any{map[string]any{"a": 1.0}, map[string]bool{"m": true}}},
		{"global key when empty", func(*board.Board) {}, func(b *board.Board) any { return b.Global().Key },
			values.GlobalKey, values.GlobalKey},
		{"enabled modules", func(b *board.Board) { b.SetEnabledModules([]string{"b", "a"}) },
			func(b *board.Board) any { return b.EnabledModules() }, []string(nil), []string{"b", "a"}},
		{"queues", func(b *board.Board) {
			b.SetQueues(messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "main", Tasks: []messages.Task{{ID: 3}}}}})
		}, func(b *board.Board) any { return b.Queues().Queues }, []messages.QueueState(nil),
			[]messages.QueueState{{Name: "main", Tasks: []messages.Task{{ID: 3}}}}},
		{"modules", func(b *board.Board) {
			b.SetModule(board.ModuleState{Name: "a", Phase: "Ready"})
			b.SetModule(board.ModuleState{Name: "b", Phase: "Failed"})
			b.SetModule(board.ModuleState{Name: "a", Phase: "Running"})
		}, func(b *board.Board) any { return b.Modules() }, map[string]board.ModuleState(nil),
			map[string]board.ModuleState{"a": {Name: "a", Phase: "Running"}, "b": {Name: "b", Phase: "Failed"}}},
		{"module removed with its values and patches", func(b *board.Board) {
			b.SetModule(board.ModuleState{Name: "a"})
			b.SetModuleValues("a", values.Snapshot{Key: "a"})
			b.SetPatches("a", json.RawMessage(`[{"op":"remove","path":"/a/x"}]`))
			b.RemoveModule("a")
		}, func(b *board.Board) any {
			_, ok := b.ModuleValues("a")
			return []any{len(b.Modules()), ok, string(b.Patches("a"))}
		}, []any{0, false, "[]"}, []any{0, false, "[]"}},
		{"hook runs", func(b *board.Board) {
			b.RecordHookRun("global", "h", 2, nil)
			b.RecordHookRun("global", "h", 1, errors.New("exit 1"))
		}, func(b *board.Board) any { return b.Hooks()["global:h"] }, board.HookStats{},
			board.HookStats{Runs: 2, Failures: 1, LastError: "exit 1", Contexts: 3}},
		{"patches", func(b *board.Board) { b.SetPatches("global", json.RawMessage(`[{"op":"add"}]`)) },
			func(b *board.Board) any { return string(b.Patches("global")) }, "[]", `[{"op":"add"}]`},
		{"dir errors", func(b *board.Board) { b.SetDirErrors(map[string]string{"m": "dangling"}) },
			func(b *board.Board) any { return b.DirErrors() }, map[string]string(nil), map[string]string{"m": "dangling"}},
		{"config", func(b *board.Board) { b.SetConfig(board.ConfigState{ConfigMap: "ns/cm", Missing: true}) },
			func(b *board.Board) any { return b.Config() }, board.ConfigState{}, board.ConfigState{ConfigMap: "ns/cm", Missing: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := board.New()
			if got := tt.read(b); !reflect.DeepEqual(got, tt.empty) {
				t.Fatalf("empty board reads %#v, want %#v", got, tt.empty)
			}
			tt.publish(b)
			if got := tt.read(b); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("read %#v, want %#v", got, tt.want)
			}
		})
	}
}

// A map read from the board does not change when the owner publishes
// again: publications replace, never mutate.
func TestPublishedMapsAreNotChanged(t *testing.T) {
	b := board.New()
	b.SetModule(board.ModuleState{Name: "a", Phase: "Ready"})
	before := b.Modules()
	b.SetModule(board.ModuleState{Name: "a", Phase: "Failed"})
	b.SetModule(board.ModuleState{Name: "b"})
	if len(before) != 1 || before["a"].Phase != "Ready" {
		t.Fatalf("a map read earlier changed: %+v", before)
	}
}

func TestReady(t *testing.T) {
	b := board.New()
	select {
	case <-b.ReadyCh():
		t.Fatal("ReadyCh closed before SetReady")
	default:
	}
	if b.Ready() {
		t.Fatal("Ready before SetReady")
	}
	b.SetReady()
	b.SetReady() // a second call is harmless
	select {
	case <-b.ReadyCh():
	default:
		t.Fatal("ReadyCh open after SetReady")
	}
	if !b.Ready() {
		t.Fatal("not Ready after SetReady")
	}
}

// WaitFor returns once a publication makes its condition hold, and with
// the context's error when none does.
func TestWaitForWakesOnPublication(t *testing.T) {
	b := board.New()
	done := make(chan error, 1)
	go func() {
		done <- b.WaitFor(context.Background(), func(b *board.Board) bool { return slices.Contains(b.EnabledModules(), "m") })
	}()
	b.SetEnabledModules([]string{"other"})
	b.SetEnabledModules([]string{"other", "m"})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitFor did not return after the publication that made its condition hold")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.WaitFor(ctx, func(*board.Board) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitFor on a cancelled context: %v", err)
	}
}

func TestSnapshots(t *testing.T) {
	b := board.New()
	if _, ok := b.Snapshots("global", "h"); ok {
		t.Fatal("an empty board has snapshots")
	}
	pods := board.Objects{}.With("ns/b", obj("b")).With("ns/a", obj("a"))
	b.SetSnapshot("global", "h", "pods", pods)
	b.SetSnapshot("global", "h", "cms", board.Objects{})
	b.SetSnapshot("module/m", "h", "pods", board.Objects{}.With("x/y", obj("y")))
	got, ok := b.Snapshots("global", "h")
	if !ok || !reflect.DeepEqual(got, bctx.Snapshots{"pods": {obj("a"), obj("b")}, "cms": {}}) {
		t.Fatalf("global h snapshots %v, %t", got, ok)
	}
	b.SetSnapshot("global", "h", "pods", pods.Without("ns/a"))
	if got, _ := b.Snapshots("global", "h"); len(got["pods"]) != 1 || len(got) != 2 {
		t.Fatalf("after a change: %v", got)
	}
	b.DropSnapshots("global")
	if _, ok := b.Snapshots("global", "h"); ok {
		t.Fatal("global's snapshots stay after DropSnapshots")
	}
	if got, ok := b.Snapshots("module/m", "h"); !ok || len(got["pods"]) != 1 {
		t.Fatalf("another owner's snapshots went with global's: %v, %t", got, ok)
	}
}
