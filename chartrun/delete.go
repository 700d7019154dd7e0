package chartrun

import (
	"context"
	"fmt"

	"github.com/addon-actors/addon-operator/forbidden"
)

// Uninstalled says what Uninstall removed.
type Uninstalled struct {
	// Revision and Status are those of the latest revision removed;
	// Revision is 0 when there was no release.
	Revision int
	Status   string
	// Destructive holds the adoption of a release this operator did not
	// label (logged at WARN), for the caller to count.
	Destructive []Destructive
}

// Uninstall uninstalls the release (helm v3 keeps no history of it) and
// says what it removed. A release that is already gone is not an error. It
// is the module's release whoever installed it: one this operator did not
// label is adopted (logged once) and uninstalled too. The purge of
// releases without a module dir deletes only what List names, which is
// labelled. The caller, which knows why the release goes, logs that.
func (r *Releaser) Uninstall(ctx context.Context, name string) (Uninstalled, error) {
	res, err := r.uninstallRelease(ctx, name)
	return res, forbidden.Explain(err) // helm's refusals name the rule to add
}

func (r *Releaser) uninstallRelease(ctx context.Context, name string) (Uninstalled, error) {
	if err := r.checkName(name); err != nil {
		return Uninstalled{}, err
	}
	r.forget(name)
	cfg, err := r.config()
	if err != nil {
		return Uninstalled{}, err
	}
	history, err := r.history(cfg, name)
	if err != nil || len(history) == 0 {
		return Uninstalled{}, err
	}
	last := latest(history)
	out := Uninstalled{Revision: last.Version, Status: statusOf(last)}
	if a := r.adopt(history); a != nil {
		out.Destructive = append(out.Destructive, *a)
	}
	if stuck(last) {
		// A killed uninstall (or install, upgrade, rollback) is finished
		// by uninstalling again: helm starts over from any of those states.
		r.opts.Log.Warn(ClearedMessage, "release", name, "revision", last.Version, "status", out.Status,
			"reason", fmt.Sprintf("release %s %s: uninstalled again", out.Status, sinceOf(last)))
		out.Destructive = append(out.Destructive, Destructive{Action: ActionClear, Reason: out.Status})
	}
	r.opts.Log.Info("helm release", "release", name, "plan", "uninstall")
	if err := r.uninstall(ctx, cfg, name); err != nil || mayChangeAPIs(history...) {
		r.forgetCapabilities()
		return out, err
	}
	return out, nil
}

// Delete is Uninstall for a caller that needs only its error.
func (r *Releaser) Delete(ctx context.Context, name string) error {
	_, err := r.Uninstall(ctx, name)
	return err
}
