package settings_test

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/supervision"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// load is Load of args with the variables kv (name, value, ...); it fails
// the test when Load fails.
func load(t *testing.T, args []string, kv ...string) settings.Settings {
	t.Helper()
	s, err := settings.Load(args, env(kv...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDefaults(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops")
	if !reflect.DeepEqual(s.ModulesDirs, []string{"/modules"}) || s.GlobalHooksDir != "/global-hooks" ||
		s.ConfigMap != "addon-operator" || s.ListenAddress != "0.0.0.0" || s.ListenPort != 9115 ||
		s.MetricsPrefix != "addon_operator_" || s.HA || s.KubeQPS != 50 || s.KubeBurst != 100 ||
		s.LogLevel != "info" || s.LogType != "text" || s.LogNoTime || s.DebugSocket != "/var/run/addon-operator/debug.socket" ||
		s.CheckInterval != time.Minute || s.ShutdownGrace != 30*time.Second || s.ParallelModuleRuns != 1 ||
		s.Lease != (settings.LeaseTimes{Duration: 35 * time.Second, RenewDeadline: 30 * time.Second, RetryPeriod: 10 * time.Second}) ||
		s.Helm != (settings.Helm{HistoryMax: 10, Timeout: 20 * time.Minute}) || s.KubeServer != "" {
		t.Fatalf("defaults: %+v", s)
	}
	if _, ok := s.Policy.(supervision.Exponential); !ok {
		t.Fatalf("default policy %T", s.Policy)
	}
	if s.Hooks != (settings.HookLimits{SlowThreshold: time.Minute, MaxOutputLines: 1000, MaxOutputBytes: 1 << 20, ContextWarnBytes: 64 << 20,
		QueuedContextBytes: 256 << 20, ProbeTimeout: 10 * time.Second}) {
		t.Fatalf("default hook limits: %+v", s.Hooks)
	}
}

// The wait for a release's workloads is off by default, with a 5m timeout.
func TestWaitReady(t *testing.T) {
	s, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops"), io.Discard)
	if err != nil || s.WaitReady || s.WaitReadyTimeout != 5*time.Minute {
		t.Fatalf("defaults: wait %v, timeout %v (%v)", s.WaitReady, s.WaitReadyTimeout, err)
	}
	s, err = settings.Load([]string{"--wait-ready-timeout", "90s"}, env("ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_WAIT_READY", "true", "ADDON_OPERATOR_WAIT_READY_TIMEOUT", "1m"), io.Discard)
	if err != nil || !s.WaitReady || s.WaitReadyTimeout != 90*time.Second {
		t.Fatalf("set: wait %v, timeout %v (%v), want true, 90s (the flag wins)", s.WaitReady, s.WaitReadyTimeout, err)
	}
	for _, tc := range [][2]string{{"ADDON_OPERATOR_WAIT_READY", "sometimes"}, {"ADDON_OPERATOR_WAIT_READY_TIMEOUT", "0"},
		{"ADDON_OPERATOR_WAIT_READY_TIMEOUT", "300"}} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", tc[0], tc[1]), io.Discard)
		if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), tc[0]+"=\""+tc[1]+"\"") {
			t.Errorf("%s=%s: err = %v, want a bad setting naming it", tc[0], tc[1], err)
		}
	}
}

func TestHookLimits(t *testing.T) {
	s := load(t, []string{"--hook-output-max-lines", "10"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_HOOK_TIMEOUT", "30s", "ADDON_OPERATOR_HOOK_SLOW_THRESHOLD", "0",
		"ADDON_OPERATOR_HOOK_OUTPUT_MAX_BYTES", "0", "ADDON_OPERATOR_BATCH_HOOK_PROBE_TIMEOUT", "2s",
		"ADDON_OPERATOR_HOOK_CONTEXT_WARN_BYTES", "1024", "ADDON_OPERATOR_QUEUED_CONTEXTS_MAX_BYTES", "0")
	if s.Hooks != (settings.HookLimits{Timeout: 30 * time.Second, MaxOutputLines: 10, ContextWarnBytes: 1024, ProbeTimeout: 2 * time.Second}) {
		t.Fatalf("hook limits: %+v", s.Hooks)
	}
	_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_HOOK_TIMEOUT", "soon",
		"ADDON_OPERATOR_HOOK_OUTPUT_MAX_LINES", "-1"), io.Discard)
	for _, want := range []string{`ADDON_OPERATOR_HOOK_TIMEOUT="soon"`, `ADDON_OPERATOR_HOOK_OUTPUT_MAX_LINES="-1"`} {
		if !errors.Is(err, settings.ErrBadSetting) || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want a bad setting naming %s", err, want)
		}
	}
}

func TestEnvNamesOfTheOriginal(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_MODULES_DIR", "/a:/b", "GLOBAL_HOOKS_DIR", "/g",
		"ADDON_OPERATOR_CONFIG_MAP", "cm", "ADDON_OPERATOR_LISTEN_PORT", "8080", "ADDON_OPERATOR_HA", "true",
		"ADDON_OPERATOR_POD", "pod-1", "KUBECONFIG", "/kc", "KUBE_CONTEXT", "ctx", "KUBE_CLIENT_QPS", "7.5",
		"LOG_LEVEL", "DEBUG", "LOG_TYPE", "text", "HELM_IGNORE_RELEASE", "me", "RETRY_POLICY", "fixed",
		"RETRY_INITIAL_DELAY", "2s", "OBJECT_PATCHER_KUBE_CLIENT_QPS", "20", "OBJECT_PATCHER_KUBE_CLIENT_BURST", "30",
		"OBJECT_PATCHER_KUBE_CLIENT_TIMEOUT", "3s", "ADDON_OPERATOR_PARALLEL_MODULE_RUNS", "8")
	if !reflect.DeepEqual(s.ModulesDirs, []string{"/a", "/b"}) || s.GlobalHooksDir != "/g" || s.ConfigMap != "cm" ||
		s.ListenPort != 8080 || !s.HA || s.Pod != "pod-1" || s.KubeConfig != "/kc" || s.KubeContext != "ctx" ||
		s.KubeQPS != 7.5 || s.LogLevel != "debug" || s.LogType != "text" || s.HelmIgnore != "me" ||
		s.Policy != (supervision.Fixed{Wait: 2 * time.Second}) ||
		s.ObjectPatcher != (settings.ClientLimits{QPS: 20, Burst: 30, Timeout: 3 * time.Second}) ||
		s.ParallelModuleRuns != 8 {
		t.Fatalf("from env: %+v", s)
	}
}

func TestPrecedence(t *testing.T) {
	s := load(t, []string{"--modules-dir", "/flag"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"MODULES_DIR", "/plain", "ADDON_OPERATOR_MODULES_DIR", "/prefixed", "KUBE_CONFIG", "/one", "KUBECONFIG", "/two")
	if !reflect.DeepEqual(s.ModulesDirs, []string{"/flag"}) || s.KubeConfig != "/one" {
		t.Fatalf("precedence: %+v", s)
	}
	s, _ = settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "MODULES_DIR", "/plain", "ADDON_OPERATOR_MODULES_DIR", "/prefixed"), io.Discard)
	if !reflect.DeepEqual(s.ModulesDirs, []string{"/prefixed"}) {
		t.Fatalf("ADDON_OPERATOR_MODULES_DIR should win over MODULES_DIR, as the original reads only it: %v", s.ModulesDirs)
	}
}

func TestBadValuesNameTheSetting(t *testing.T) {
	cases := map[string]struct {
		env  func(string) (string, bool)
		args []string
		name string
	}{
		"no namespace": {env(), nil, "ADDON_OPERATOR_NAMESPACE"},
		"port":         {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_LISTEN_PORT", "http"), nil, "ADDON_OPERATOR_LISTEN_PORT"},
		"ha":           {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_HA", "maybe"), nil, "ADDON_OPERATOR_HA"},
		"log type":     {env("ADDON_OPERATOR_NAMESPACE", "x"), []string{"--log-type", "xml"}, "--log-type"},
		"qps":          {env("ADDON_OPERATOR_NAMESPACE", "x", "KUBE_CLIENT_QPS", "-1"), nil, "KUBE_CLIENT_QPS"},
		"patcher qps":  {env("ADDON_OPERATOR_NAMESPACE", "x", "OBJECT_PATCHER_KUBE_CLIENT_QPS", "0"), nil, "OBJECT_PATCHER_KUBE_CLIENT_QPS"},
		"grace":        {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_SHUTDOWN_GRACE", "soon"), nil, "ADDON_OPERATOR_SHUTDOWN_GRACE"},
		"retry":        {env("ADDON_OPERATOR_NAMESPACE", "x", "RETRY_POLICY", "linear"), nil, "RETRY_POLICY"},
		"parallel 0":   {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_PARALLEL_MODULE_RUNS", "0"), nil, `ADDON_OPERATOR_PARALLEL_MODULE_RUNS="0": want a positive integer`},
		"parallel":     {env("ADDON_OPERATOR_NAMESPACE", "x"), []string{"--parallel-module-runs", "many"}, `--parallel-module-runs="many"`},
		"lease order":  {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_HA_RENEW_DEADLINE", "40s"), nil, "ADDON_OPERATOR_HA_RENEW_DEADLINE=40s"},
		"unnumbered":   {env("ADDON_OPERATOR_NAMESPACE", "x", "ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER", "-1"), nil, `ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER="-1"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := settings.Load(c.args, c.env, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.name) {
				t.Fatalf("error %v does not name %s", err, c.name)
			}
			if name != "retry" && !errors.Is(err, settings.ErrBadSetting) {
				t.Fatalf("error %v is not ErrBadSetting", err)
			}
		})
	}
}

// ADDON_OPERATOR_HTTP_AUTH is off by default; kubernetes (any case) or the
// flag turns it on; another value is a start-up error naming the variable.
func TestHTTPAuth(t *testing.T) {
	s, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops"), io.Discard)
	if err != nil || s.HTTPAuth != settings.HTTPAuthOff {
		t.Fatalf("default %q (%v), want off", s.HTTPAuth, err)
	}
	s, err = settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_HTTP_AUTH", "Kubernetes"), io.Discard)
	if err != nil || s.HTTPAuth != settings.HTTPAuthKubernetes {
		t.Fatalf("variable: %q (%v)", s.HTTPAuth, err)
	}
	s, err = settings.Load([]string{"--http-auth", "kubernetes"}, env("ADDON_OPERATOR_NAMESPACE", "ops"), io.Discard)
	if err != nil || s.HTTPAuth != settings.HTTPAuthKubernetes {
		t.Fatalf("flag: %q (%v)", s.HTTPAuth, err)
	}
	_, err = settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_HTTP_AUTH", "token"), io.Discard)
	if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), `ADDON_OPERATOR_HTTP_AUTH="token"`) ||
		!strings.Contains(err.Error(), "off, kubernetes") {
		t.Fatalf("bad value: %v", err)
	}
}
