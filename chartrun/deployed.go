package chartrun

import "context"

// Deployed is a release's last deployed revision as `plan` compares it.
type Deployed struct {
	Revision int
	Manifest string
}

// DeployedRelease returns the last deployed revision of the release; ok is
// false when it has none (never installed, or only failed revisions). It
// reads helm's storage and writes nothing.
func (r *Releaser) DeployedRelease(ctx context.Context, name string) (d Deployed, ok bool, err error) {
	if err := r.checkName(name); err != nil {
		return Deployed{}, false, err
	}
	cfg, err := r.config()
	if err != nil {
		return Deployed{}, false, err
	}
	history, err := r.history(cfg, name)
	if err != nil {
		return Deployed{}, false, err
	}
	rel := lastDeployed(history)
	if rel == nil {
		return Deployed{}, false, nil
	}
	return Deployed{Revision: rel.Version, Manifest: rel.Manifest}, true, nil
}
