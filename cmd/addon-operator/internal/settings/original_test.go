package settings_test

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
)

// UPSTREAM.md §9: the SHELL_OPERATOR_* names are read when the
// ADDON_OPERATOR_* ones are not set, and lose to them.
func TestShellOperatorFallbacks(t *testing.T) {
	s := load(t, nil, "SHELL_OPERATOR_NAMESPACE", "ns", "SHELL_OPERATOR_HOOKS_DIR", "/so-hooks",
		"SHELL_OPERATOR_TMP_DIR", "/so-tmp", "SHELL_OPERATOR_LISTEN_ADDRESS", "127.0.0.2",
		"SHELL_OPERATOR_LISTEN_PORT", "9650", "SHELL_OPERATOR_PROMETHEUS_METRICS_PREFIX", "so_")
	if s.Namespace != "ns" || s.GlobalHooksDir != "/so-hooks" || s.TmpDir != "/so-tmp" ||
		s.ListenAddress != "127.0.0.2" || s.ListenPort != 9650 || s.MetricsPrefix != "so_" {
		t.Fatalf("fallbacks not read: %+v", s)
	}
	s = load(t, nil, "SHELL_OPERATOR_NAMESPACE", "ns", "ADDON_OPERATOR_NAMESPACE", "ao",
		"SHELL_OPERATOR_HOOKS_DIR", "/so-hooks", "GLOBAL_HOOKS_DIR", "/plain", "ADDON_OPERATOR_GLOBAL_HOOKS_DIR", "/ao-hooks")
	if s.Namespace != "ao" || s.GlobalHooksDir != "/ao-hooks" {
		t.Fatalf("ADDON_OPERATOR_* should win: namespace %q, hooks %q", s.Namespace, s.GlobalHooksDir)
	}
	s, _ = settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ao", "SHELL_OPERATOR_HOOKS_DIR", "/so-hooks", "GLOBAL_HOOKS_DIR", "/plain"), io.Discard)
	if s.GlobalHooksDir != "/so-hooks" {
		t.Fatalf("SHELL_OPERATOR_HOOKS_DIR should win over the unprefixed name: %q", s.GlobalHooksDir)
	}
}

// UPSTREAM.md §9: HELM_HISTORY_MAX, HELM_TIMEOUT, KUBE_SERVER and
// LOG_NO_TIME are read.
func TestHelmAndKubeServerSettings(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ns", "HELM_HISTORY_MAX", "3", "HELM_TIMEOUT", "90s",
		"KUBE_SERVER", "https://10.0.0.1:6443", "LOG_NO_TIME", "true")
	if s.Helm != (settings.Helm{HistoryMax: 3, Timeout: 90 * time.Second}) || s.KubeServer != "https://10.0.0.1:6443" || !s.LogNoTime {
		t.Fatalf("settings: %+v", s)
	}
	_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", "HELM_TIMEOUT", "soon"), io.Discard)
	if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), "HELM_TIMEOUT") {
		t.Fatalf("err = %v, want a bad setting naming HELM_TIMEOUT", err)
	}
}

// UPSTREAM.md §9: a helm 2 / Tiller variable that is set stops start-up.
func TestRemovedTillerSettingsStopStartUp(t *testing.T) {
	for _, name := range []string{"ADDON_OPERATOR_TILLER_LISTEN_PORT", "ADDON_OPERATOR_TILLER_PROBE_LISTEN_PORT",
		"TILLER_MAX_HISTORY", "TILLER_BIN_PATH", "HELM2"} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", name, "1"), io.Discard)
		if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s set: err = %v, want a bad setting naming it", name, err)
		}
	}
	if _, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", "HELM2", ""), io.Discard); err != nil {
		t.Errorf("HELM2 empty: %v, want no error", err)
	}
}

// UPSTREAM.md §9: DEBUG_KEEP_TMP_FILES keeps the hooks' run files; the
// original's settings this operator does not read are listed, set ones
// only, by name, each with what is done instead (start-up warns).
func TestDebugKeepFilesAndUnsupportedSettings(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ns", "DEBUG_KEEP_TMP_FILES", "true",
		"USE_NELM", "true", "ADDON_OPERATOR_SHELL_CHROOT_DIR", "/chroot", "LOG_PROXY_HOOK_JSON", "")
	if !s.Hooks.KeepFiles {
		t.Error("DEBUG_KEEP_TMP_FILES=true not read")
	}
	var names []string
	for _, u := range s.Unsupported {
		names = append(names, u.Name+"="+u.Value)
		if u.Why == "" {
			t.Errorf("%s: no word on what is done instead", u.Name)
		}
	}
	if got := strings.Join(names, ","); got != "ADDON_OPERATOR_SHELL_CHROOT_DIR=/chroot,USE_NELM=true" {
		t.Fatalf("unsupported settings %q", got)
	}
	if s, _ := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns"), io.Discard); s.Hooks.KeepFiles || len(s.Unsupported) > 0 ||
		s.UnnumberedModulesOrder != nil {
		t.Fatalf("defaults: keep files %t, unsupported %v, unnumbered order %v", s.Hooks.KeepFiles, s.Unsupported, s.UnnumberedModulesOrder)
	}
}

// UPSTREAM.md §5: ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER, when set, is the
// order of a module dir without a numeric prefix; 0 is an order.
func TestUnnumberedModulesOrder(t *testing.T) {
	for _, v := range []string{"0", "1", "2147483647"} {
		s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ns", "ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER", v)
		if o := s.UnnumberedModulesOrder; o == nil || strconv.Itoa(*o) != v || len(s.Unsupported) > 0 {
			t.Fatalf("%s: order %v, unsupported %v", v, o, s.Unsupported)
		}
	}
	if _, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", "ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER", "2147483648"), io.Discard); err == nil {
		t.Fatal("an order of 2^31 was taken")
	}
	// The classic docs' name (RUNNING.md) is read too, and loses to the original's.
	s, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", "UNNUMBERED_MODULE_ORDER", "7"), io.Discard)
	if err != nil || s.UnnumberedModulesOrder == nil || *s.UnnumberedModulesOrder != 7 {
		t.Fatalf("UNNUMBERED_MODULE_ORDER=7: %v, %v", s.UnnumberedModulesOrder, err)
	}
	s, err = settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ns", "UNNUMBERED_MODULE_ORDER", "7",
		"ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER", "3"), io.Discard)
	if err != nil || s.UnnumberedModulesOrder == nil || *s.UnnumberedModulesOrder != 3 {
		t.Fatalf("both names set: %v, %v", s.UnnumberedModulesOrder, err)
	}
}
