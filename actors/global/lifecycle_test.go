package global

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

// TestGlobalStart: the actor publishes its scope when it starts, and
// reports ready once its hooks are configured, after registering their
// webhooks when it serves them (a failure of either is the start's
// error); once it stops, new tasks fail.
func TestGlobalStart(t *testing.T) {
	configured := newCore(t, map[string]string{"policy": `{"configVersion":"v1","kubernetesValidating":[{"name":"v.example.com"}]}`})
	scope, withWebhook := configured.Scope, configured.Hooks
	for _, tc := range []struct {
		name   string
		serve  bool
		events []Event
		want   [][]string
	}{
		{name: "no webhooks", events: []Event{Configured{Hooks: withWebhook}}, want: [][]string{{"HooksConfigured", "Ready"}}},
		{name: "webhooks served", serve: true, events: []Event{Configured{Hooks: withWebhook}, WebhooksRegistered{}},
			want: [][]string{{"HooksConfigured", "RegisterWebhooks"}, {"Ready"}}},
		{name: "webhooks failed", serve: true, events: []Event{Configured{Hooks: withWebhook}, WebhooksRegistered{Err: errors.New("no cert")}},
			want: [][]string{{"HooksConfigured", "RegisterWebhooks"}, {"WebhooksFailed", "Ready err=no cert"}}},
		{name: "hooks failed", serve: true, events: []Event{Configured{Err: errors.New("bad config")}},
			want: [][]string{{"HooksConfigured", "Ready err=bad config"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Core{}
			step(t, c, Started{Scope: scope, ServeWebhooks: tc.serve}, "Publish")
			for i, ev := range tc.events {
				step(t, c, ev, tc.want[i]...)
			}
		})
	}
	c := &Core{}
	step(t, c, Stopping{})
	step(t, c, assign(1, messages.Task{Kind: messages.TaskGlobalSync}), "Reply 1 err=the operator is stopping")
}
