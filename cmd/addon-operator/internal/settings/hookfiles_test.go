package settings_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/hookexec"
)

// The caps of hooks' output files default to hookexec's, are set per kind
// by variable or flag, and must be positive.
func TestHookFileCaps(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops")
	want := hookexec.OutputCaps{ValuesPatch: hookexec.DefaultValuesPatchMaxBytes, Metrics: hookexec.DefaultMetricsMaxBytes,
		ObjectPatches: hookexec.DefaultObjectPatchesMaxBytes, WebhookResponse: hookexec.DefaultWebhookResponseMaxBytes}
	if s.HookFiles != want {
		t.Fatalf("defaults: %+v, want %+v", s.HookFiles, want)
	}
	s = load(t, []string{"--hook-metrics-max-bytes", "2048"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_HOOK_VALUES_PATCH_MAX_BYTES", "1000", "ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES", "1024",
		"ADDON_OPERATOR_HOOK_OBJECT_PATCHES_MAX_BYTES", "3000", "ADDON_OPERATOR_HOOK_WEBHOOK_RESPONSE_MAX_BYTES", "4000")
	want = hookexec.OutputCaps{ValuesPatch: 1000, Metrics: 2048, ObjectPatches: 3000, WebhookResponse: 4000}
	if s.HookFiles != want {
		t.Fatalf("set: %+v, want %+v (the flag wins)", s.HookFiles, want)
	}
	for _, bad := range []string{"0", "-5", "1MiB"} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES", bad), io.Discard)
		if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), `ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES="`+bad+`"`) {
			t.Errorf("%s: err = %v, want a bad setting naming it", bad, err)
		}
	}
}
