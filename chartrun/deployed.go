package chartrun

import "context"

// Deployed is a release's last deployed revision as `plan` compares it.
type Deployed struct {
	Revision int
	Manifest string
	// Maintained: the latest revision was written in maintenance mode, so
	// a run in maintenance leaves the release as it is (maintenance.go).
	Maintained bool
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
	maintained := keptInMaintenance(history) != nil
	rel := lastDeployed(history)
	if rel == nil {
		return Deployed{Maintained: maintained}, false, nil
	}
	return Deployed{Revision: rel.Version, Manifest: rel.Manifest, Maintained: maintained}, true, nil
}
