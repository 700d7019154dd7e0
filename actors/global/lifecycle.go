package global

// The global actor's own life, as the core decides it: started, its hooks
// configured (their webhooks registered first when it serves them),
// stopping.

// started takes the scope built from the values files and what the actor
// has: a kube actor, a clock, a webhook server.
func (c *Core) started(e Started) []Effect {
	c.Scope, c.WithKube, c.Paced, c.serveWebhooks = e.Scope, e.WithKube, e.Paced, e.ServeWebhooks
	return []Effect{Publish{}}
}

// configure takes the configured hooks. Their bindings start with
// TaskGlobalSync, after onStartup: no schedule fires and no event runs a
// hook before it. The actor reports ready, once their webhooks are
// registered when it serves them.
func (c *Core) configure(e Configured) []Effect {
	c.Hooks = e.Hooks
	out := []Effect{HooksConfigured{Count: len(e.Hooks), Err: e.Err}}
	if e.Err == nil && c.servesWebhooks() {
		return append(out, RegisterWebhooks{}) // WebhooksRegistered follows
	}
	return append(out, ready(e.Err))
}

// webhooksRegistered reports ready once the webhooks are registered: their
// failure is the start-up's error, as in shell-operator.
func (c *Core) webhooksRegistered(err error) []Effect {
	if err != nil {
		return []Effect{WebhooksFailed{Err: err}, ready(err)}
	}
	return []Effect{ready(nil)}
}

// servesWebhooks tells whether the global hooks' webhook bindings are
// served.
func (c *Core) servesWebhooks() bool { return c.serveWebhooks && c.Hooks.HasWebhooks() }

// ready is the report of the actor's start, failed with err when not nil.
func ready(err error) Ready {
	if err == nil {
		return Ready{}
	}
	return Ready{Err: err.Error()}
}
