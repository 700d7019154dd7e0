package module

// The module's crds/ are applied before the first run since it was
// enabled (every enabled module's at the first converge), before
// onStartup, the bindings' Synchronization, beforeHelm and helm, so that
// the hooks may watch their own kinds from the start. A module that stays
// enabled is not applied again; a failure fails the run, which is retried
// from EnsureCRDs.

// firstPhase is where a run starts while no run has completed since the
// module was enabled.
func (c *Core) firstPhase() Phase {
	if c.HasCRDs {
		return EnsureCRDs
	}
	return c.afterCRDs()
}

// afterCRDs is the phase after EnsureCRDs: the webhooks are registered
// once the CRDs they convert exist.
func (c *Core) afterCRDs() Phase {
	if c.HasWebhooks {
		return EnsureWebhooks
	}
	return Startup
}

func (c *Core) crdsApplied(err error, env Env) []Effect {
	if c.run == nil || c.run.phase != EnsureCRDs {
		return nil
	}
	if err != nil {
		return c.finish(err, env)
	}
	return c.enter(c.afterCRDs(), env)
}
