package config_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// The config actor hands each module its section: the first one, with the
// operator as the sender (it waits for the answers at start-up), then every
// changed one, answered to the config actor, which counts a rejected one.
func TestConfigActorHandsModulesTheirSections(t *testing.T) {
	env, kit := startConfig(t, map[string]string{"fooBar": "x: 1\n", "baz": "port: 1\n"})
	fooBar, baz, operator := kit.NewProbe(), kit.NewProbe(), kit.NewProbe()
	kit.Send(env.pid, messages.SectionReaders{FirstReport: operator.PID, Modules: map[string]messages.SectionReader{
		"fooBar": {Owner: "module/foo-bar", PID: fooBar.PID}, "baz": {Owner: "module/baz", PID: baz.PID}}})
	expectChange(t, env, values.Change{Modules: []string{"baz", "fooBar"}})
	for _, p := range []*actortest.Probe{fooBar, baz} {
		r := p.Receive(patience)
		if _, ok := r.Message.(messages.ApplyConfig); !ok || !r.Sender.Equal(operator.PID) {
			t.Fatalf("first section: %T %+v from %v, want ApplyConfig from the operator", r.Message, r.Message, r.Sender)
		}
	}

	putConfigMap(t, env.client, env.ns, map[string]string{"fooBar": "x: 2\n", "baz": "port: 1\n"})
	answerCheck(t, env, fooBar, "module/foo-bar", "")
	expectChange(t, env, values.Change{Modules: []string{"fooBar"}})
	r := fooBar.Receive(patience)
	got, ok := r.Message.(messages.ApplyConfig)
	if !ok || got.Section.(map[string]any)["x"] != float64(2) || !r.Sender.Equal(env.pid) {
		t.Fatalf("changed section: %T %+v from %v, want x: 2 from the config actor", r.Message, r.Message, r.Sender)
	}
	kit.Root.RequestWithCustomSender(env.pid, messages.ConfigApplied{Owner: "module/foo-bar", Err: "x: must be a string"}, fooBar.PID)

	// baz's section did not change: the next edit's section is the first
	// thing it gets; by then the rejection is counted.
	putConfigMap(t, env.client, env.ns, map[string]string{"fooBar": "x: 2\n", "baz": "port: 3\n"})
	answerCheck(t, env, baz, "module/baz", "")
	expectChange(t, env, values.Change{Modules: []string{"baz"}})
	if got := actortest.Expect[messages.ApplyConfig](baz, patience); got.Section.(map[string]any)["port"] != float64(3) {
		t.Fatalf("baz got %+v", got)
	}
	if n := env.errors.n.Load(); n != 1 {
		t.Fatalf("rejected sections counted %d, want 1", n)
	}
	fooBar.ExpectNoMessage(0)
	if got.ReloadFollows {
		t.Fatal("a module section changed alone: ReloadFollows set, want the module to run itself")
	}

	// The global section changes with baz's: the operator reloads all
	// modules, so baz is told not to queue its own run.
	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 1\n", "fooBar": "x: 2\n", "baz": "port: 4\n"})
	answerCheck(t, env, baz, "module/baz", "")
	expectChange(t, env, values.Change{Global: true, Modules: []string{"baz"}})
	if got := actortest.Expect[messages.ApplyConfig](baz, patience); !got.ReloadFollows {
		t.Fatalf("baz's section changed with the global one: %+v, want ReloadFollows", got)
	}
}

// A change is applied whole or not at all (spec/VALUES.md): the owners of
// the sections it changes are asked first, and one that would reject its
// section rejects the change: the operator hears ConfigInvalid, no module
// gets a section. A newer version replaces a check still waiting (answers
// to the old one count for nothing), and a valid change goes through.
func TestConfigActorAppliesAChangeWholeOrNotAtAll(t *testing.T) {
	env, kit := startConfig(t, map[string]string{"global": "a: 1\n", "fooBar": "x: 1\n"})
	fooBar, global, operator := kit.NewProbe(), kit.NewProbe(), kit.NewProbe()
	kit.Send(env.pid, messages.SectionReaders{FirstReport: operator.PID, Global: global.PID,
		Modules: map[string]messages.SectionReader{"fooBar": {Owner: "module/foo-bar", PID: fooBar.PID}}})
	expectChange(t, env, values.Change{Global: true, Modules: []string{"fooBar"}})
	actortest.Expect[messages.ApplyConfig](fooBar, patience)

	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 2\n", "fooBar": "x: bad\n"})
	if got := answerCheck(t, env, global, "global", ""); got.Section.(map[string]any)["a"] != float64(2) {
		t.Fatalf("global asked about %+v, want a: 2", got.Section)
	}
	answerCheck(t, env, fooBar, "module/foo-bar", "x: must be an integer")
	if got := actortest.Expect[messages.ConfigInvalid](env.probe, patience); !strings.Contains(got.Err, "module/foo-bar: x: must be an integer") {
		t.Fatalf("rejected change: %+v, want the module's reason", got)
	}
	fooBar.ExpectNoMessage(0)
	if n := env.errors.n.Load(); n != 1 {
		t.Fatalf("rejected changes counted %d, want 1", n)
	}

	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 3\n", "fooBar": "x: bad\n"})
	stale := actortest.Expect[messages.CheckConfig](global, patience) // not answered yet
	answerCheck(t, env, fooBar, "module/foo-bar", "")
	putConfigMap(t, env.client, env.ns, map[string]string{"global": "a: 3\n", "fooBar": "x: 2\n"})
	fresh := answerCheck(t, env, fooBar, "module/foo-bar", "")
	if fresh.Round == stale.Round {
		t.Fatalf("a newer version was checked in the same round %d", fresh.Round)
	}
	kit.Send(env.pid, messages.ConfigChecked{Owner: "global", Round: stale.Round}) // too late: counts for nothing
	env.probe.ExpectNoMessage(0)
	answerCheck(t, env, global, "global", "")
	expectChange(t, env, values.Change{Global: true, Modules: []string{"fooBar"}})
	if got := actortest.Expect[messages.ApplyConfig](fooBar, patience); got.Section.(map[string]any)["x"] != float64(2) {
		t.Fatalf("fooBar got %+v, want x: 2", got)
	}
}

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
