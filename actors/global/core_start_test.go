package global

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestGlobalStart: the actor publishes its scope when it starts, and
// reports ready once its hooks are configured, after registering their
// webhooks when it serves them (a failure of either is the start's
// error); once it stops, new tasks fail.
func TestGlobalStart(t *testing.T) {
	withWebhook := parseHooks(t, map[string]string{"policy": policyHook})
	configured := "Log INFO global hooks configured count=1"
	for _, tc := range []struct {
		name   string
		serve  bool
		events []Event
		want   [][]string
	}{
		{name: "no webhooks", events: []Event{Configured{Hooks: withWebhook}}, want: [][]string{{configured, "Ready"}}},
		{name: "webhooks served", serve: true, events: []Event{Configured{Hooks: withWebhook}, WebhooksRegistered{}},
			want: [][]string{{configured, "RegisterWebhooks"}, {"Ready"}}},
		{name: "webhooks failed", serve: true, events: []Event{Configured{Hooks: withWebhook}, WebhooksRegistered{Err: errors.New("no cert")}},
			want: [][]string{{configured, "RegisterWebhooks"}, {"Log ERROR global hooks' webhooks err=no cert", "Ready err=no cert"}}},
		{name: "hooks failed", serve: true, events: []Event{Configured{Err: errors.New("bad config")}},
			want: [][]string{{"Log ERROR global hooks err=bad config", "Log INFO global hooks configured count=0", "Ready err=bad config"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scope := testScope(t)
			c := NewCore(CoreOptions{Scope: scope, ServeWebhooks: tc.serve})
			effects := harness(t, c).Expect(Started{}, "Publish", "ConfigureHooks")
			if got := effects[0].(Owned).Effect.(owner.Publish).Scope; got.Checksum() != scope.Checksum() {
				t.Fatal("the start published another scope")
			}
			for i, ev := range tc.events {
				effects := harness(t, c).Expect(ev, tc.want[i]...)
				if r, ok := effects[len(effects)-1].(RegisterWebhooks); ok && len(r.Hooks) != 1 {
					t.Fatalf("RegisterWebhooks carries %d hooks, want the configured one", len(r.Hooks))
				}
			}
		})
	}
	c := NewCore(CoreOptions{})
	harness(t, c).Expect(Stopping{})
	harness(t, c).Expect(assign(1, messages.Task{Kind: messages.TaskGlobalSync}), "Reply 1 err=the operator is stopping")
}

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core (the owner's effects it hands to owner.Shell, whose own test holds
// it to them), so that a new effect type fails here rather than at run
// time in the shell; Step has a case for every event of the core, and
// fromOwner for every owner effect, so that a new one cannot be dropped
// without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply":     {Dir: ".", Marker: "globalEffect"},
		"Step":      {Dir: ".", Marker: "globalEvent"},
		"fromOwner": {Dir: "../../hookrun/owner", Marker: "ownerEffect", Qualifier: "owner"},
	})
}
