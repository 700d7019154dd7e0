package config_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// A module's maintenance key reaches the module with its section, on its
// own when only the key changed; an invalid value keeps the last good
// configuration (the module hears nothing).
func TestConfigActorHandsModulesTheirMaintenance(t *testing.T) {
	env, kit := startConfig(t, map[string]string{"fooBar": "x: 1\n", "fooBarMaintenance": "NoResourceReconciliation"})
	fooBar, operator := kit.NewProbe(), kit.NewProbe()
	kit.Send(env.pid, messages.SectionReaders{FirstReport: operator.PID, Modules: map[string]messages.SectionReader{
		"fooBar": {Owner: "module/foo-bar", PID: fooBar.PID}}})
	expectChange(t, env, values.Change{Modules: []string{"fooBar"}, Maintenance: []string{"fooBar"}})
	if got := actortest.Expect[messages.ApplyConfig](fooBar, patience); !got.Maintenance {
		t.Fatalf("first section: %+v, want maintenance on", got)
	}

	putConfigMap(t, env.client, env.ns, map[string]string{"fooBar": "x: 1\n", "fooBarMaintenance": "Sometimes"})
	if got := actortest.Expect[messages.ConfigInvalid](env.probe, patience); !strings.Contains(got.Err, `"fooBarMaintenance"`) {
		t.Fatalf("invalid maintenance value: %+v", got)
	}
	fooBar.ExpectNoMessage(0)

	putConfigMap(t, env.client, env.ns, map[string]string{"fooBar": "x: 1\n", "fooBarMaintenance": ""})
	answerCheck(t, env, fooBar, "module/foo-bar", "")
	expectChange(t, env, values.Change{Maintenance: []string{"fooBar"}})
	got := actortest.Expect[messages.ApplyConfig](fooBar, patience)
	if got.Maintenance || got.Section.(map[string]any)["x"] != float64(1) {
		t.Fatalf("maintenance off: %+v, want the same section and maintenance off", got)
	}
}
