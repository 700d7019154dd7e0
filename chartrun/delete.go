package chartrun

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/storage/driver"
)

// Delete uninstalls the release (helm v3 keeps no history of it). A release
// that is already gone is not an error; a foreign one is refused.
func (r *Releaser) Delete(_ context.Context, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	cfg, err := r.config()
	if err != nil {
		return err
	}
	history, err := cfg.Releases.History(name)
	if errors.Is(err, driver.ErrReleaseNotFound) || (err == nil && len(history) == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("history of release %s: %w", name, err)
	}
	if last := latest(history); last.Labels[LabelHeritage] != HeritageValue {
		return fmt.Errorf("delete %s: %w", name, ErrForeignRelease)
	}
	return r.uninstall(cfg, name)
}

func (r *Releaser) uninstall(cfg *action.Configuration, name string) error {
	un := action.NewUninstall(cfg)
	un.Timeout = r.opts.Timeout
	if _, err := un.Run(name); err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return fmt.Errorf("uninstall release %s: %w", name, err)
	}
	return nil
}

// List returns the names of the releases this operator installed, sorted.
func (r *Releaser) List(_ context.Context) ([]string, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	all, err := cfg.Releases.ListReleases()
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	seen := map[string]bool{}
	for _, rel := range all {
		if rel.Labels[LabelHeritage] == HeritageValue {
			seen[rel.Name] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
