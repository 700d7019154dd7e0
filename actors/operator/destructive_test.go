package operator_test

import (
	"context"
	"log/slog"
	"reflect"
	"sync"
	"testing"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// warnings keeps the WARN records' messages and attributes.
type warnings struct {
	mu   sync.Mutex
	list []map[string]string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler           { return w }
func (w *warnings) WithGroup(string) slog.Handler                { return w }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	attrs := map[string]string{"msg": r.Message}
	r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, attrs)
	return nil
}

func (w *warnings) all() []map[string]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]map[string]string(nil), w.list...)
}

// A disabled module's delete task says what disabled it (a sentence, and a
// bounded cause for the metric); a purge is logged at WARN with its reason
// and counted.
func TestDestructiveTasksSayWhy(t *testing.T) {
	defs := []layout.Definition{definition(t, "001-a", true, false), definition(t, "002-b", false, false),
		definition(t, "003-c", true, true)}
	logs := &warnings{}
	var mu sync.Mutex
	var counted []string
	e := startWith(t, defs, []string{"b", "gone"}, func(o *operator.LifecycleOptions) {
		o.Releases = releases{names: []string{"b", "gone"}, others: []string{"c"}}
		o.Log = slog.New(logs)
		o.Destructive = func(release string, d worker.Destructive) {
			mu.Lock()
			defer mu.Unlock()
			counted = append(counted, release+" "+d.Action+" "+d.Reason)
		}
	})
	e.boot(t, 4)
	done := e.runTask(t, messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator},
		answer{"a", true, nil}, answer{"c", false, []string{"a"}})
	var got []string
	for _, task := range done.Next {
		if task.Kind == messages.TaskModuleDelete || task.Kind == messages.TaskModulePurge {
			got = append(got, task.Module+": "+task.Cause+": "+task.Reason)
		}
	}
	want := []string{"b: module-values-yaml: disabled in the module's values.yaml key bEnabled",
		"c: enabled-script: disabled by its enabled script",
		"gone: module-dir-gone: module dir gone: no module gone in the modules dirs"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("destructive tasks\n%v\nwant\n%v", got, want)
	}
	purge := done.Next[len(done.Next)-3]
	if d := e.runTask(t, purge); d.Err != "" {
		t.Fatalf("purge failed: %s", d.Err)
	}
	wantLog := []map[string]string{{"msg": operator.PurgedMessage, "release": "gone", "reason": purge.Reason}}
	if got := logs.all(); !reflect.DeepEqual(got, wantLog) {
		t.Fatalf("WARN records %v; want %v", got, wantLog)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"gone purge module-dir-gone"}; !reflect.DeepEqual(counted, want) {
		t.Fatalf("counted %v; want %v", counted, want)
	}
}
