package chartrun

import "context"

// Deployed is a release's last deployed revision as `plan` compares it.
type Deployed struct {
	Revision int
	Manifest string
	// Maintained: the latest revision was written in maintenance mode, so
	// a run in maintenance leaves the release as it is (maintenance.go).
	Maintained bool
	// Recovery and RecoveryOnDelete say what a module run, and a delete,
	// would do with a release helm left stuck ("" when it is not).
	Recovery, RecoveryOnDelete string
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
	d = Deployed{Maintained: keptInMaintenance(history) != nil,
		Recovery: recovery(history, true), RecoveryOnDelete: recovery(history, false)}
	rel := lastDeployed(history)
	if rel == nil {
		return d, false, nil
	}
	d.Revision, d.Manifest = rel.Version, rel.Manifest
	return d, true, nil
}
