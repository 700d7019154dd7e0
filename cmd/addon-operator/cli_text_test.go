package main

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
)

// `module list` and `module list -o wide` print the same columns for a
// module, the last one its error (a dir error first) or its WHY.
func TestTextModuleLists(t *testing.T) {
	mods := []board.ModuleState{
		{Name: "a", Enabled: true, Phase: board.PhaseIdle, LastRun: "ModuleRun", Tasks: 4, Revision: 3},
		{Name: "bee", Phase: board.PhaseFailed, LastError: "hook x.sh: exit status 1", Maintenance: "NoResourceReconciliation"},
		{Name: "c", Phase: board.PhaseUnseen, LastError: "old", DirError: "dangling symlink"},
	}
	// Both lists pad the shared columns alike; only the last one differs.
	head := "MODULE  ENABLED  MAINTENANCE               PHASE   LAST TASK  TASKS  REVISION  "
	rows := []string{
		"a       true     -                         idle    ModuleRun  4      3         ",
		"bee     false    NoResourceReconciliation  failed  -          0      0         ",
		"c       false    -                         unseen  -          0      0         ",
	}
	list := head + "LAST ERROR\n" + rows[0] + "-\n" + rows[1] + "hook x.sh: exit status 1\n" + rows[2] + "dangling symlink\n"
	if got := printed(t, textModules, mods); got != list {
		t.Fatalf("module list:\n%s\nwant\n%s", got, list)
	}
	var whys []debugapi.Why
	wide := head + "WHY\n"
	for i, m := range mods {
		whys = append(whys, debugapi.Why{Module: m.Name, State: m, Summary: "why " + m.Name})
		wide += rows[i] + "why " + m.Name + "\n"
	}
	if got := printed(t, textModulesWide, whys); got != wide {
		t.Fatalf("module list -o wide:\n%s\nwant\n%s", got, wide)
	}
}

// printed is what text prints of v, sent as the debug API sends it.
func printed(t *testing.T, text func(io.Writer, []byte) error, v any) string {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := text(&out, body); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
