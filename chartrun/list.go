package chartrun

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReleaseNames are the helm releases in the operator's namespace, sorted,
// Options.IgnoreRelease left out of both lists.
type ReleaseNames struct {
	// Owned are the releases this operator installed (a revision carries
	// the heritage label): only they are purged when their module is gone.
	Owned []string
	// All are every release, whoever installed it: a disabled module's
	// release is deleted whoever installed it, as the original does.
	All []string
	// Stuck maps each release whose latest revision helm left stuck
	// (pending-install, pending-upgrade, pending-rollback, uninstalling)
	// to "revision N left STATE", read from its Secret's labels. The
	// caller reports those that are no module's: nothing touches them.
	Stuck map[string]string
}

// List returns the names of the releases this operator installed (see
// ReleaseNames.Owned).
func (r *Releaser) List(ctx context.Context) ([]string, error) {
	names, err := r.Names(ctx)
	return names.Owned, err
}

// Names lists the releases from the metadata of helm's release Secrets
// (labels owner=helm, name, heritage): no release is decoded, so a release
// someone else installed is never read. One adopted by a module run is
// owned once its revision with the label is written.
func (r *Releaser) Names(ctx context.Context) (ReleaseNames, error) {
	list, err := r.meta.Resource(secretsResource).Namespace(r.namespace).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil {
		return ReleaseNames{}, fmt.Errorf("list releases: %w", err)
	}
	owned, all, latestOf := map[string]bool{}, map[string]bool{}, map[string]map[string]string{}
	for _, s := range list.Items {
		name := s.Labels["name"]
		if name == "" || name == r.opts.IgnoreRelease {
			continue
		}
		all[name] = true
		if s.Labels[LabelHeritage] == HeritageValue {
			owned[name] = true
		}
		if l := latestOf[name]; l == nil || labelVersion(s.Labels) > labelVersion(l) {
			latestOf[name] = s.Labels
		}
	}
	return ReleaseNames{Owned: slices.Sorted(maps.Keys(owned)), All: slices.Sorted(maps.Keys(all)), Stuck: stuckByLabels(latestOf)}, nil
}

// Exists tells whether the release has a revision, whoever installed it:
// one List request on the metadata of its release Secrets, none decoded.
func (r *Releaser) Exists(ctx context.Context, name string) (bool, error) {
	if err := r.checkName(name); err != nil {
		return false, err
	}
	list, err := r.meta.Resource(secretsResource).Namespace(r.namespace).List(ctx, metav1.ListOptions{
		LabelSelector: "owner=helm,name=" + name, Limit: 1})
	if err != nil {
		return false, fmt.Errorf("look up release %s: %w", name, err)
	}
	return len(list.Items) > 0, nil
}

// labelVersion is the revision a release Secret's labels name (0 if none).
func labelVersion(labels map[string]string) int {
	v, _ := strconv.Atoi(labels["version"])
	return v
}

// stuckByLabels picks, from the labels of each release's latest revision,
// the releases helm left stuck (nil when none is).
func stuckByLabels(latestOf map[string]map[string]string) map[string]string {
	var out map[string]string
	for name, labels := range latestOf {
		if IsStuckState(labels["status"]) {
			if out == nil {
				out = map[string]string{}
			}
			out[name] = fmt.Sprintf("revision %s left %s", labels["version"], labels["status"])
		}
	}
	return out
}
