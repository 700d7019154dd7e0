package chartrun

import (
	"context"
	"fmt"
)

// Delete uninstalls the release (helm v3 keeps no history of it). A release
// that is already gone is not an error; a foreign one is refused.
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
	if err := checkOurs(history); err != nil {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	r.opts.Log.Info("helm release", "release", name, "plan", "uninstall")
	defer r.forgetCapabilities()
	return r.uninstall(ctx, cfg, name)
}
