package board_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// The reader reads the write side's conventions once: a dir error joins
// the module's state, a dir not seen since start-up is a module in the
// unseen phase, a module published failed has failed to start.
func TestReaderKnownModules(t *testing.T) {
	var r board.Reader = board.New()
	if got := r.KnownModules(); got != nil {
		t.Fatalf("an empty board knows %v, want nil (the debug API's null)", got)
	}
	b := board.New()
	b.SetModule(board.ModuleState{Name: "c", Phase: board.PhaseFailed})
	b.SetModule(board.ModuleState{Name: "a", Phase: board.PhaseIdle, Enabled: true})
	b.SetModule(board.ModuleState{Name: "d", Phase: board.PhaseFailed})
	b.SetDirErrors(map[string]string{"a": "dangling symlink", "b": "no such dir"})
	r = b
	want := []board.ModuleState{
		{Name: "a", Phase: board.PhaseIdle, Enabled: true, DirError: "dangling symlink"},
		{Name: "b", Phase: board.PhaseUnseen, DirError: "no such dir"},
		{Name: "c", Phase: board.PhaseFailed},
		{Name: "d", Phase: board.PhaseFailed},
	}
	if got := r.KnownModules(); !reflect.DeepEqual(got, want) {
		t.Fatalf("known modules\n%+v\nwant\n%+v", got, want)
	}
	for _, w := range want {
		if got, ok := r.Known(w.Name); !ok || !reflect.DeepEqual(got, w) {
			t.Fatalf("Known(%s) = %+v, %t; want %+v", w.Name, got, ok, w)
		}
	}
	if _, ok := r.Known("nope"); ok {
		t.Fatal("Known(nope): the board knows a module nobody published")
	}
	if got := r.FailedToStart(); !reflect.DeepEqual(got, []string{"c", "d"}) {
		t.Fatalf("failed to start %v, want [c d]", got)
	}
}

// An owner's values are its snapshot, patches and password paths; the
// global owner always has some, a module only once it published them.
func TestReaderOwnerValues(t *testing.T) {
	b := board.New()
	g, ok := b.OwnerValues(values.GlobalKey)
	if !ok || g.Snapshot.Key != values.GlobalKey || string(g.Patches) != "[]" || g.Passwords != nil {
		t.Fatalf("empty global: %+v, %t", g, ok)
	}
	if _, ok := b.OwnerValues("m"); ok {
		t.Fatal("a module that published no values has some")
	}
	snap := values.Snapshot{Key: "m", Config: map[string]any{"x": 1.0}, Values: map[string]any{"x": 1.0}}
	b.SetModuleValues("m", snap)
	b.SetPatches("m", json.RawMessage(`[{"op":"add","path":"/m/y","value":2}]`))
	b.SetPasswords("m", mask.Paths{{"x"}})
	m, ok := b.OwnerValues("m")
	want := board.OwnerValues{Snapshot: snap, Patches: json.RawMessage(`[{"op":"add","path":"/m/y","value":2}]`),
		Passwords: mask.Paths{{"x"}}}
	if !ok || !reflect.DeepEqual(m, want) {
		t.Fatalf("module values %+v, want %+v", m, want)
	}
}
