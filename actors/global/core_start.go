package global

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
)

// The global actor's start, as the core decides it: its hooks configured,
// their webhooks registered first when it serves them, then ready.

// configure takes the configured hooks. Their bindings start with
// TaskGlobalSync, after onStartup: no schedule fires and no event runs a
// hook before it. The actor reports ready, once their webhooks are
// registered when it serves them.
func (c *Core) configure(e Configured) []Effect {
	c.hooks = e.Hooks
	var out []Effect
	if e.Err != nil {
		out = append(out, Log(step.At(slog.LevelError, "global hooks", "err", e.Err)))
	}
	out = append(out, Log(step.At(slog.LevelInfo, "global hooks configured", "count", len(e.Hooks))))
	if e.Err == nil && c.servesWebhooks() {
		return append(out, RegisterWebhooks{Hooks: c.hooks}) // WebhooksRegistered follows
	}
	return append(out, ready(e.Err))
}

// webhooksRegistered reports ready once the webhooks are registered: their
// failure is the start-up's error, as in shell-operator.
func (c *Core) webhooksRegistered(err error) []Effect {
	if err != nil {
		return []Effect{Log(step.At(slog.LevelError, "global hooks' webhooks", "err", err)), ready(err)}
	}
	return []Effect{ready(nil)}
}

// servesWebhooks tells whether the global hooks' webhook bindings are
// served.
func (c *Core) servesWebhooks() bool { return c.serveWebhooks && c.hooks.HasWebhooks() }

// ready is the report of the actor's start, failed with err when not nil.
func ready(err error) Ready {
	if err == nil {
		return Ready{}
	}
	return Ready{Err: err.Error()}
}
