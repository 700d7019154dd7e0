package chartrun

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"helm.sh/helm/v3/pkg/storage/driver"
)

// List returns the names of the releases this operator installed, sorted,
// so that the lifecycle can purge those whose module is gone. Releases
// without the heritage label, and Options.IgnoreRelease, are not listed.
// Only the Secrets with the label are read (a label selector), so a release
// someone else installed is never decoded, and never purged; one adopted by
// a module run is listed once its revision with the label is written.
func (r *Releaser) List(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	ours, err := cfg.Releases.Driver.Query(map[string]string{"owner": "helm", LabelHeritage: HeritageValue})
	if errors.Is(err, driver.ErrReleaseNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	seen := map[string]bool{}
	for _, rel := range ours {
		if rel.Name != r.opts.IgnoreRelease {
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
