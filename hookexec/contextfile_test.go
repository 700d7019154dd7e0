package hookexec

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// TestContextsWrittenAsAStream: a run's Contexts reach the hook's binding
// context file as bctx.Marshal would write them (a reused run directory is
// cut to the new size), Result.ContextBytes is the file's size, and a file
// past ContextWarnBytes is logged at WARN once per hook and binding,
// naming the binding whose contexts took the most of it.
func TestContextsWrittenAsAStream(t *testing.T) {
	out := t.TempDir()
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out),
		ContextWarnBytes: 1000})
	var snapshot []bctx.ObjectAndFilterResult
	for i := range 50 {
		snapshot = append(snapshot, bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(fmt.Sprintf(`"phase-%d"`, i))})
	}
	shared := bctx.Snapshots{"big": snapshot}
	big := bctx.Array{
		bctx.WatchEventContext("big", "Modified", bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(`"a"`)}, shared),
		bctx.WatchEventContext("big", "Modified", bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(`"b"`)}, shared),
		bctx.ScheduleTick("small", nil),
	}
	small := bctx.Marshal([]bctx.Context{bctx.ScheduleTick("small", nil)})
	hook := testHook(t, "copy-context.sh")
	for i, req := range []Request{{Hook: hook, Contexts: big}, {Hook: hook, Contexts: big}, {Hook: hook, BindingContext: small}} {
		res, err := r.Run(context.Background(), req)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		want := small
		if req.Contexts != nil {
			want = bctx.Marshal(req.Contexts)
		}
		got := readNewest(t, out)
		if got != string(want) || res.ContextBytes != int64(len(want)) {
			t.Fatalf("run %d: hook read %d bytes (ContextBytes %d), want %d:\n%s", i, len(got), res.ContextBytes, len(want), got)
		}
	}
	var warns []record
	for _, rec := range rec.all() {
		if rec.level == slog.LevelWarn {
			warns = append(warns, rec)
		}
	}
	if len(warns) != 1 || warns[0].attrs["binding"] != "big" || warns[0].attrs["hook"] != hook.Name {
		t.Fatalf("warnings %+v, want one naming hook %s and binding big", warns, hook.Name)
	}
}

// readNewest reads the file of dir written last, and removes it.
func readNewest(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one file in %s: %v %v", dir, entries, err)
	}
	path := filepath.Join(dir, entries[0].Name())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	return string(data)
}
