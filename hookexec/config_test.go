package hookexec

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

func TestConfig(t *testing.T) {
	cases := []struct {
		name  string
		scope bindings.Scope
		env   []string
		want  error  // nil: parses
		text  string // in the error
	}{
		{"v1 json", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"configVersion":"v1","onStartup":5,"schedule":[{"crontab":"*/5 * * * * *"}]}`}, nil, ""},
		{"v1 yaml", bindings.ScopeModule, []string{"CONFIG_TEXT=configVersion: v1\nbeforeHelm: 1\nkubernetes:\n- kind: Pod\n  jqFilter: .metadata.name\n"}, nil, ""},
		{"v0", bindings.ScopeModule, []string{`CONFIG_TEXT={"onKubernetesEvent":[{"kind":"pod","event":["add"]}]}`}, nil, ""},
		{"invalid json", bindings.ScopeGlobal, []string{"CONFIG_TEXT={\"onStartup\": 1,,}"}, hookconfig.ErrSyntax, "line 1 column 17"},
		{"invalid yaml", bindings.ScopeGlobal, []string{"CONFIG_TEXT=onStartup: [1\n"}, hookconfig.ErrSyntax, "yaml"},
		{"unknown binding", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"configVersion":"v1","onShutdown":1}`}, hookconfig.ErrUnknownBinding, "onShutdown"},
		{"wrong scope", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"beforeHelm":1}`}, hookconfig.ErrWrongScope, "beforeHelm"},
		{"bad crontab", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"schedule":[{"crontab":"every day"}]}`}, hookconfig.ErrBadCrontab, "schedule[0].crontab"},
		{"bad crontab named", bindings.ScopeModule, []string{`CONFIG_TEXT={"configVersion":"v1","schedule":[{"name":"nightly","crontab":"0 25 * * *"}]}`}, hookconfig.ErrBadCrontab, `schedule[0].crontab: bad crontab: "0 25 * * *" (binding "nightly")`},
		{"bad jqFilter", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"configVersion":"v1","kubernetes":[{"kind":"Pod","jqFilter":".a |"}]}`}, hookconfig.ErrBadJqFilter, "kubernetes[0].jqFilter"},
		{"validating name not fully qualified", bindings.ScopeModule, []string{`CONFIG_TEXT={"configVersion":"v1","kubernetesValidating":[{"name":"v"}]}`}, hookconfig.ErrBadName, `kubernetesValidating[0].name: bad name: "v"`},
		{"duplicate names", bindings.ScopeGlobal, []string{`CONFIG_TEXT={"configVersion":"v1","kubernetes":[{"name":"a","kind":"Pod"},{"name":"a","kind":"Pod"}]}`}, hookconfig.ErrDuplicateName, "kubernetes[1].name"},
		{"exit non-zero", bindings.ScopeGlobal, []string{`CONFIG_TEXT={}`, "CONFIG_EXIT=2"}, ErrHookFailed, "code 2"},
		{"nothing printed", bindings.ScopeGlobal, nil, hookconfig.ErrSyntax, "empty output"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv(tc.env...)})
			hook := testHook(t, "config.sh")
			cfg, err := r.Config(context.Background(), hook, tc.scope)
			if tc.want == nil {
				if err != nil || cfg == nil {
					t.Fatalf("Config: %v", err)
				}
				return
			}
			wantErr(t, err, tc.want, hook.Path, tc.text)
			if tc.want != ErrHookFailed && !errors.Is(err, ErrConfig) {
				t.Errorf("err %v does not wrap ErrConfig", err)
			}
		})
	}
}

func TestConfigRunsInHookDirWithWorkingDir(t *testing.T) {
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(), Environ: baseEnv(`CONFIG_TEXT={"onStartup":1}`)})
	hook := testHook(t, "config.sh")
	hook.Root = "/the/hooks/root"
	if _, err := r.Config(context.Background(), hook, bindings.ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	want := "pwd=" + hook.Dir() + " working_dir=/the/hooks/root"
	if _, ok := rec.find(want); !ok {
		t.Errorf("no record %q in %+v", want, rec.all())
	}
}

func TestConfigOutputTooLarge(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("CONFIG_TEXT=" + strings.Repeat("x", 200)), MaxConfigBytes: 100})
	_, err := r.Config(context.Background(), testHook(t, "config.sh"), bindings.ScopeGlobal)
	if !errors.Is(err, ErrOutputTooLarge) {
		t.Fatalf("err = %v, want ErrOutputTooLarge", err)
	}
}

func TestRunEnabled(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		answer string
		want   *bool
	}{
		{"true", &yes}, {"false", &no}, {"true\n", &yes}, {"  false \n", &no},
		{"", nil}, {"yes", nil}, {"TRUE", nil}, {strings.Repeat("z", 100), nil},
	}
	for _, tc := range cases {
		t.Run(tc.answer, func(t *testing.T) {
			tmp := t.TempDir()
			r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("ENABLED_ANSWER=" + tc.answer)})
			script := testHook(t, "enabled")
			res, err := r.RunEnabled(context.Background(), EnabledRequest{
				Script:       script,
				Values:       []byte(`{"global":{"enabledModules":["a"]},"someModule":{}}`),
				ConfigValues: []byte(`{}`),
			})
			r.Close()
			assertNoEntries(t, tmp)
			if tc.want == nil {
				wantErr(t, err, ErrBadEnabledResult, script.Path)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Enabled == nil || *res.Enabled != *tc.want {
				t.Errorf("Enabled = %v, want %v", res.Enabled, *tc.want)
			}
		})
	}
}

func TestRunEnabledScriptFails(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("ENABLED_ANSWER=true")})
	// No enabledModules in the values: the script's grep fails.
	_, err := r.RunEnabled(context.Background(), EnabledRequest{Script: testHook(t, "enabled"), Values: []byte(`{}`)})
	if !errors.Is(err, ErrHookFailed) {
		t.Fatalf("err = %v, want ErrHookFailed", err)
	}
}

// Webhook bindings load into the model, with no WARN: the operator serves
// them.
func TestConfigReadsWebhookBindings(t *testing.T) {
	rec := newRecorder()
	text := `CONFIG_TEXT={"configVersion":"v1","onStartup":1,"kubernetesValidating":[{"name":"a.example.com"},{"name":"b.example.com"}],"kubernetesMutating":[{"name":"m"}]}`
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(), Environ: baseEnv(text)})
	hook := testHook(t, "config.sh")
	cfg, err := r.Config(context.Background(), hook, bindings.ScopeGlobal)
	if err != nil {
		t.Fatal(err)
	}
	if order, ok := cfg.Order(bindings.OnStartup); !ok || order != 1 {
		t.Errorf("onStartup = %v %v", order, ok)
	}
	if len(cfg.Validating) != 2 || cfg.Validating[1].Name != "b.example.com" || len(cfg.Mutating) != 1 || cfg.Mutating[0].Name != "m" {
		t.Errorf("validating %+v, mutating %+v", cfg.Validating, cfg.Mutating)
	}
	var warns []string
	for _, rec := range rec.all() {
		if rec.level >= slog.LevelWarn {
			warns = append(warns, fmt.Sprintf("%s %v", rec.msg, rec.attrs))
		}
	}
	if len(warns) != 0 {
		t.Errorf("WARN records %q, want none: webhook bindings are served", warns)
	}
}
