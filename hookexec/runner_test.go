package hookexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

func TestRunFilesEnvAndOutputs(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	rec := newRecorder()
	r := newRunner(t, Options{
		Logger: slog.New(rec), TmpDir: tmp,
		Environ: baseEnv("OUT_DIR="+out, "FROM_DEPLOYMENT=yes", "VALUES_PATH=/inherited/must/lose"),
	})
	bc := bctx.Marshal([]bctx.Context{bctx.Order("beforeHelm", nil)})
	values := []byte(`{"global":{"enabledModules":["some-module"]},"someModule":{"param1":"Long string"}}`)
	config := []byte(`{"global":{},"someModule":{"param1":"Long string"}}`)
	hook := testHook(t, "all-outputs.sh")
	res, err := r.Run(context.Background(), Request{
		Hook: hook, BindingContext: bc, Values: values, ConfigValues: config,
		Scope: PatchScope{RootKey: "someModule"},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	wantEq(t, "binding context", readFile(t, filepath.Join(out, "binding_context")), string(bc))
	wantEq(t, "values", readFile(t, filepath.Join(out, "values")), string(values))
	wantEq(t, "config values", readFile(t, filepath.Join(out, "config_values")), string(config))
	wantEq(t, "dir mode", readFile(t, filepath.Join(out, "dir_mode")), "700")
	wantEq(t, "file mode", readFile(t, filepath.Join(out, "file_mode")), "600")
	wantEq(t, "cwd", readFile(t, filepath.Join(out, "pwd")), hook.Dir())
	wantEq(t, "tmp dir parent", filepath.Dir(readFile(t, filepath.Join(out, "tmp_dir"))), tmp)
	env := readFile(t, filepath.Join(out, "env"))
	for _, v := range []string{"BINDING_CONTEXT_PATH=", "VALUES_PATH=" + tmp, "CONFIG_VALUES_PATH=", "VALUES_JSON_PATCH_PATH=",
		"CONFIG_VALUES_JSON_PATCH_PATH=", "METRICS_PATH=", "KUBERNETES_PATCH_PATH=", "WORKING_DIR=" + hook.Root, "FROM_DEPLOYMENT=yes"} {
		if !strings.Contains(env, "\n"+v) && !strings.HasPrefix(env, v) {
			t.Errorf("hook env lacks %s:\n%s", v, env)
		}
	}
	if strings.Contains(env, "/inherited/must/lose") {
		t.Errorf("inherited VALUES_PATH was not overridden")
	}
	r.Close()
	assertNoEntries(t, tmp)
	checkOutputs(t, res)
	checkOutputLogs(t, rec, hook.Name)
}

func checkOutputs(t *testing.T, res Result) {
	t.Helper()
	sameJSONValue(t, "values patch", res.ValuesPatch, `[{"op":"add","path":"/someModule/param3","value":"newValue"}]`)
	sameJSONValue(t, "config patch", res.ConfigValuesPatch,
		`[{"op":"replace","path":"/someModule/a","value":1},{"op":"remove","path":"/someModule/b"}]`)
	want := []MetricOp{
		{Name: "hook_gauge", Action: MetricSet, Value: 3, Labels: map[string]string{"a": "b"}},
		{Name: "hook_counter", Action: MetricAdd, Value: 1, Group: "g1"},
		{Name: "hook_hist", Action: MetricObserve, Value: 0.5, Buckets: []float64{0.1, 1}},
		{Action: MetricExpire, Group: "g0"},
	}
	if !reflect.DeepEqual(res.Metrics, want) {
		t.Errorf("metrics = %+v, want %+v", res.Metrics, want)
	}
	wantEq(t, "exit code", res.ExitCode, 0)
	if res.Duration <= 0 || res.UserCPU+res.SysCPU <= 0 || res.MaxRSSBytes < 1<<20 {
		t.Errorf("process figures not filled: %+v", res)
	}
	if res.Enabled != nil {
		t.Errorf("Enabled set for a hook run")
	}
}

func checkOutputLogs(t *testing.T, rec *recorder, hookName string) {
	t.Helper()
	plain, ok := rec.find("plain stdout line")
	if !ok || plain.attrs["hook"] != hookName || plain.attrs["output"] != "stdout" || plain.level != slog.LevelInfo {
		t.Errorf("plain stdout record = %+v, %v", plain, ok)
	}
	structured, ok := rec.find("structured")
	if !ok || structured.level != slog.LevelWarn || structured.attrs["count"] != 2.0 || structured.attrs["hook"] != hookName {
		t.Errorf("JSON stdout record = %+v, %v", structured, ok)
	}
	stderr, ok := rec.find("a stderr line")
	if !ok || stderr.attrs["output"] != "stderr" {
		t.Errorf("stderr record = %+v, %v", stderr, ok)
	}
}

func sameJSONValue(t *testing.T, what string, got any, want string) {
	t.Helper()
	gb, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	_ = json.Unmarshal(gb, &g)
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s", what, gb, want)
	}
}

func wantEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestRunEnvAllowlist(t *testing.T) {
	out := t.TempDir()
	r := newRunner(t, Options{
		TmpDir:       t.TempDir(),
		Environ:      baseEnv("OUT_DIR="+out, "KUBE_A=1", "KUBE_B=2", "SECRET_TOKEN=x", "KEEP=1", "KEEPER=no"),
		EnvAllowlist: ParseEnvAllowlist("OUT_DIR, KUBE_*,KEEP"),
	})
	if _, err := r.Run(context.Background(), Request{Hook: testHook(t, "all-outputs.sh"), Scope: PatchScope{RootKey: "someModule"}}); err != nil {
		t.Fatal(err)
	}
	env := "\n" + readFile(t, filepath.Join(out, "env")) + "\n"
	for _, want := range []string{"\nKUBE_A=1\n", "\nKUBE_B=2\n", "\nKEEP=1\n", "\nPATH=", "\nVALUES_PATH=", "\nWORKING_DIR="} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q", want)
		}
	}
	for _, unwanted := range []string{"SECRET_TOKEN", "KEEPER"} {
		if strings.Contains(env, unwanted) {
			t.Errorf("env has %s despite the allow-list", unwanted)
		}
	}
}

func TestRunKeepFiles(t *testing.T) {
	tmp := t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, KeepFiles: true, Environ: baseEnv("OUT_DIR=" + t.TempDir())})
	if _, err := r.Run(context.Background(), Request{Hook: testHook(t, "all-outputs.sh"), Scope: PatchScope{RootKey: "someModule"}}); err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, "hook-*", "values_json_patch.json"))
	if len(dirs) != 1 {
		t.Fatalf("kept files = %v, want one run directory", dirs)
	}
}

func TestRunFailureCarriesExitCodeAndStderrTail(t *testing.T) {
	tmp := t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv()})
	hook := testHook(t, "fail.sh")
	res, err := r.Run(context.Background(), Request{Hook: hook, Scope: PatchScope{RootKey: "global"}})
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("err = %v, want *ExitError", err)
	}
	wantErr(t, err, ErrHookFailed, hook.Path, "code 3", "error line 30")
	wantEq(t, "code", exit.Code, 3)
	wantEq(t, "result code", res.ExitCode, 3)
	wantEq(t, "tail length", len(exit.StderrTail), 20)
	wantEq(t, "first tail line", exit.StderrTail[0], "error line 11")
	wantEq(t, "last tail line", exit.StderrTail[19], "error line 30")
	if res.ValuesPatch != nil {
		t.Errorf("patch read from a failed run")
	}
	r.Close()
	assertNoEntries(t, tmp)
}

func TestRunRequestLogger(t *testing.T) {
	runnerLog, requestLog := newRecorder(), newRecorder()
	r := newRunner(t, Options{Logger: slog.New(runnerLog), TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + t.TempDir())})
	hook := testHook(t, "all-outputs.sh")
	_, err := r.Run(context.Background(), Request{
		Hook: hook, Scope: PatchScope{RootKey: "someModule"},
		Logger: slog.New(requestLog).With("module", "some-module"),
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := requestLog.find("plain stdout line")
	if !ok || rec.attrs["module"] != "some-module" || rec.attrs["hook"] != hook.Name {
		t.Errorf("request logger record = %+v, %v", rec, ok)
	}
	if n := len(runnerLog.all()); n != 0 {
		t.Errorf("runner logger got %d records", n)
	}
}

// Run directories are made ahead of the runs that use them: each run must
// still get a directory of its own, its output files empty, its inputs
// written, and Close must leave the temp dir empty.
func TestRunDirsMadeAheadAreFreshForEachRun(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	const runs = 6
	for i := range runs {
		req := Request{Hook: testHook(t, "fresh-dir.sh"), Values: []byte(fmt.Sprintf(`{"run":%d}`, i)),
			Scope: PatchScope{RootKey: "someModule"}}
		if _, err := r.Run(context.Background(), req); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	dirs, values := map[string]bool{}, map[string]bool{}
	for _, lines := range runRecords(t, out, runs, 3) { // dir, files, values
		dirs[lines[0]] = true
		values[lines[2]] = true
	}
	if len(dirs) != runs || len(values) != runs {
		t.Errorf("%d runs had %d distinct dirs and %d distinct values, want %d of each", runs, len(dirs), len(values), runs)
	}
	r.Close()
	assertNoEntries(t, tmp)
}

// A run directory made ahead that someone removed meanwhile (a temp dir
// cleaner) is replaced by one made for the run.
func TestRunDirMadeAheadAndRemovedIsReplaced(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	req := Request{Hook: testHook(t, "fresh-dir.sh"), Scope: PatchScope{RootKey: "someModule"}}
	if _, err := r.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	r.Close() // the directories made ahead are removed: all of them are gone
	for range 2 {
		r.background.Wait()
		entries, _ := filepath.Glob(filepath.Join(tmp, "hook-*"))
		for _, dir := range entries {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.Run(context.Background(), req); err != nil {
			t.Fatalf("run after the temp dir was cleaned: %v", err)
		}
	}
	r.Close()
	assertNoEntries(t, tmp)
}

// newRunner is NewRunner closed at the end of the test, before its temp
// dirs are removed (the runner makes run dirs ahead in the background).
func newRunner(t testing.TB, o Options) *Runner {
	r := NewRunner(o)
	t.Cleanup(r.Close)
	return r
}
