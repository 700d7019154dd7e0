package chartrun

import "context"

// Delete uninstalls the release (helm v3 keeps no history of it). A release
// that is already gone is not an error. It is the module's release whoever
// installed it: one this operator did not label is adopted (logged once)
// and uninstalled too. The purge of releases without a module dir deletes
// only what List names, which is labelled.
func (r *Releaser) Delete(ctx context.Context, name string) error {
	if err := r.checkName(name); err != nil {
		return err
	}
	r.forget(name)
	cfg, err := r.config()
	if err != nil {
		return err
	}
	history, err := r.history(cfg, name)
	if err != nil || len(history) == 0 {
		return err
	}
	r.adopt(history)
	r.opts.Log.Info("helm release", "release", name, "plan", "uninstall")
	defer r.forgetCapabilities()
	return r.uninstall(ctx, cfg, name)
}
