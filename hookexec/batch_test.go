package hookexec

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// buildBatchHook builds test/batchhook (a real module-sdk protocol
// executable) into path with the given -X main.mode.
func buildBatchHook(t *testing.T, path, mode string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	cmd := exec.Command("go", "build", "-ldflags", "-X main.mode="+mode, "-o", path, "../test/batchhook")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build batch hook: %v\n%s", err, out)
	}
}

func hookNames(hooks []Hook) []string {
	out := make([]string, 0, len(hooks))
	for _, h := range hooks {
		out = append(out, h.Name)
	}
	return out
}

func TestDiscoverHooksModuleBatch(t *testing.T) {
	module := t.TempDir()
	hooksDir := filepath.Join(module, "hooks")
	buildBatchHook(t, filepath.Join(hooksDir, "bin"), "")
	writeTestFile(t, filepath.Join(hooksDir, "shell.sh"), 0o755)
	writeTestFile(t, filepath.Join(hooksDir, "script"), 0o755) // extensionless, but a script
	writeTestFile(t, filepath.Join(hooksDir, "README"), 0o644)
	rec := newRecorder()
	r := NewRunner(Options{Logger: slog.New(rec), Environ: baseEnv()})
	hooks, err := r.DiscoverHooks(context.Background(), module, Owner{Scope: bindings.ScopeModule, Module: "batch-module"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hooks/bin:schedule:0", "hooks/bin:configmaps:1", "hooks/bin-readiness", "hooks/script", "hooks/shell.sh"}
	if got := hookNames(hooks); !slices.Equal(got, want) {
		t.Fatalf("hooks = %q, want %q", got, want)
	}
	wantArgs := [][]string{{"hook", "run", "0"}, {"hook", "run", "1"}, {"hook", "ready"}, nil, nil}
	for i, h := range hooks {
		if !slices.Equal(h.Args, wantArgs[i]) {
			t.Errorf("%s args = %q, want %q", h.Name, h.Args, wantArgs[i])
		}
		if (h.Config != nil) != (i < 3) {
			t.Errorf("%s config read at discovery = %v", h.Name, h.Config != nil)
		}
	}
	if !slices.Contains(hooks[0].Env, "MODULE_NAME=batch-module") || !slices.Contains(hooks[0].Env, "APPLICATION_NAME=") {
		t.Errorf("env = %q", hooks[0].Env)
	}
	if g := hooks[1].Config.Kubernetes[0].Group; g != hookconfig.BatchGroup {
		t.Errorf("kubernetes group = %q", g)
	}
	if c := hooks[2].Config.Schedules[0].Crontab; c != "*/2 * * * * *" {
		t.Errorf("readiness crontab = %q", c)
	}
	if w, ok := rec.find("hook file skipped: not executable"); !ok || w.attrs["file"] != filepath.Join(hooksDir, "README") {
		t.Errorf("no warning for README: %v", w)
	}
	cfg, err := r.Config(context.Background(), hooks[0], bindings.ScopeModule)
	if err != nil || cfg != hooks[0].Config {
		t.Errorf("Config of a nested hook = %v, %v; want the one read at discovery", cfg, err)
	}
}

func TestDiscoverHooksGlobalBatch(t *testing.T) {
	dir := t.TempDir()
	buildBatchHook(t, filepath.Join(dir, "hooks", "bin"), "")
	writeTestFile(t, filepath.Join(dir, "hooks", "shell.sh"), 0o755)
	// With a hooks/ subdir, the original looks for global hooks only there.
	writeTestFile(t, filepath.Join(dir, "other.sh"), 0o755)
	r := NewRunner(Options{Environ: baseEnv()})
	hooks, err := r.DiscoverHooks(context.Background(), dir, Owner{Scope: bindings.ScopeGlobal})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hooks/bin-schedule-0", "hooks/bin-configmaps-1", "hooks/bin-readiness", "shell.sh"}
	if got := hookNames(hooks); !slices.Equal(got, want) {
		t.Fatalf("hooks = %q, want %q", got, want)
	}
	if !slices.Contains(hooks[0].Env, "MODULE_NAME=global") {
		t.Errorf("env = %q", hooks[0].Env)
	}
}

func TestDiscoverHooksBatchErrors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // file under hooks/ -> build mode
		is    error
		want  []string
	}{
		{"broken config", map[string]string{"bin": "broken"}, ErrConfig,
			[]string{"hooks/bin", `hooks[1] "configmaps"`, "kubernetes[0].kind", "kind is required"}},
		{"hanging hook list", map[string]string{"bin": "hang"}, ErrTimeout,
			[]string{"probe batch hook", "hooks/bin", "hook list", "timed out"}},
		{"two readiness hooks", map[string]string{"a": "", "b": ""}, ErrConfig,
			[]string{"multiple readiness hooks found in", "hooks/b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			module := t.TempDir()
			for name, mode := range tc.files {
				buildBatchHook(t, filepath.Join(module, "hooks", name), mode)
			}
			r := NewRunner(Options{Environ: baseEnv(), ProbeTimeout: time.Second})
			_, err := r.DiscoverHooks(context.Background(), module, Owner{Scope: bindings.ScopeModule, Module: "m"})
			wantErr(t, err, tc.is, tc.want...)
		})
	}
}

// A nested hook runs as `hook run <key>` with MODULE_NAME, and its patch
// and metrics are read as a shell hook's, a metric without a group taking
// the hook's name; a failure's error carries stderr.
func TestRunNestedBatchHook(t *testing.T) {
	module := t.TempDir()
	buildBatchHook(t, filepath.Join(module, "hooks", "bin"), "")
	r := NewRunner(Options{Environ: baseEnv(), TmpDir: t.TempDir()})
	hooks, err := r.DiscoverHooks(context.Background(), module, Owner{Scope: bindings.ScopeModule, Module: "batch-module"})
	if err != nil {
		t.Fatal(err)
	}
	scope := PatchScope{RootKey: "batchModule"}
	res, err := r.Run(context.Background(), Request{Hook: hooks[0], Scope: scope,
		BindingContext: []byte(`[{"binding":"every-second","type":"Schedule"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	got := valuestest.Marshal(t, res.ValuesPatch)
	for _, w := range []string{`"/batchModule/moduleName","value":"batch-module"`, `"value":"every-second"`, `"value":"empty"`} {
		if !strings.Contains(got, w) {
			t.Errorf("values patch %s lacks %s", got, w)
		}
	}
	if len(res.Metrics) != 1 || res.Metrics[0].Name != "batch_test_runs_total" || res.Metrics[0].Group != hooks[0].Name {
		t.Errorf("metrics = %+v, want batch_test_runs_total grouped by the hook's name %q (UPSTREAM.md §1.5)", res.Metrics, hooks[0].Name)
	}
	bad := hooks[0]
	bad.Args = []string{"hook", "run", "7"}
	_, err = r.Run(context.Background(), Request{Hook: bad, Scope: scope, BindingContext: []byte(`[{}]`)})
	wantErr(t, err, ErrHookFailed, `{"message":"execute: no hook 7"}`, "hook run 7") // the stderr JSON and the command
}

// The overlap rule: a compiled executable whose `hook list` fails stays a
// shell hook, configured with --config.
func TestDiscoverHooksCompiledShellHook(t *testing.T) {
	module := t.TempDir()
	buildBatchHook(t, filepath.Join(module, "hooks", "compiled"), "shell")
	r := NewRunner(Options{Environ: baseEnv()})
	hooks, err := r.DiscoverHooks(context.Background(), module, Owner{Scope: bindings.ScopeModule, Module: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].Name != "hooks/compiled" || hooks[0].Args != nil || hooks[0].Config != nil {
		t.Fatalf("hooks = %+v, want the shell hook compiled", hooks)
	}
	cfg, err := r.Config(context.Background(), hooks[0], bindings.ScopeModule)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cfg.Order(bindings.OnStartup); !ok {
		t.Errorf("--config not read: %+v", cfg)
	}
}

func TestListsItems(t *testing.T) {
	cases := map[string]bool{
		"Found 2 items:\n0 - a\n1 - b\n": true,
		"Found 1 items\n":                true,
		"Found 9999 items:":              true,
		"Found 0 items:\n":               false,
		"Found 10000 items:\n":           false,
		"Found x items:\n":               false,
		"Found 2 itemsets\n":             false,
		"usage: hook\n":                  false,
		"":                               false,
	}
	for out, want := range cases {
		if got := listsItems([]byte(out)); got != want {
			t.Errorf("listsItems(%q) = %v, want %v", out, got, want)
		}
	}
}

// UPSTREAM.md §1.1–1.2: `hook list` runs in an empty environment and
// `hook config` in the operator's (test/batchhook mode envcheck fails
// otherwise, and a failed probe would leave a shell hook named "bin").
func TestDiscoverHooksBatchEnvironments(t *testing.T) {
	module := t.TempDir()
	buildBatchHook(t, filepath.Join(module, "hooks", "bin"), "envcheck")
	r := NewRunner(Options{Environ: baseEnv("SOME_SETTING=1")})
	hooks, err := r.DiscoverHooks(context.Background(), module, Owner{Scope: bindings.ScopeModule, Module: "m"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hooks/bin:schedule:0", "hooks/bin:configmaps:1", "hooks/bin-readiness"}
	if got := hookNames(hooks); !slices.Equal(got, want) {
		t.Fatalf("hooks = %q, want %q", got, want)
	}
}

// UPSTREAM.md §1.1: a global hooks dir without a hooks/ subdir is searched
// itself; nested names are `<path>-<name>-<key>` from the dir.
func TestDiscoverHooksGlobalBatchWithoutHooksDir(t *testing.T) {
	dir := t.TempDir()
	buildBatchHook(t, filepath.Join(dir, "sub", "bin"), "")
	r := NewRunner(Options{Environ: baseEnv()})
	hooks, err := r.DiscoverHooks(context.Background(), dir, Owner{Scope: bindings.ScopeGlobal})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sub/bin-schedule-0", "sub/bin-configmaps-1", "sub/bin-readiness"}
	if got := hookNames(hooks); !slices.Equal(got, want) {
		t.Fatalf("hooks = %q, want %q", got, want)
	}
}
