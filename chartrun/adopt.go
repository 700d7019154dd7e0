package chartrun

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/release"
)

// adoptions remembers the releases whose adoption this releaser logged, so
// that each is logged once per process however often it is retried.
type adoptions struct {
	mu     sync.Mutex
	logged map[string]bool
}

// first reports whether name has not been logged before, and remembers it.
func (a *adoptions) first(name string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.logged[name] {
		return false
	}
	if a.logged == nil {
		a.logged = map[string]bool{}
	}
	a.logged[name] = true
	return true
}

// adopt logs at WARN, once per release, that the module's release is taken
// over although its latest revision does not carry the heritage label, and
// returns the adoption to count; nil for a release that is ours, does not
// exist, or whose adoption was logged before. The revision written next
// carries the label, and from then on the release is ours.
func (r *Releaser) adopt(history []*release.Release) *Destructive {
	if len(history) == 0 {
		return nil
	}
	last := latest(history)
	if ours(last) || !r.adopted.first(last.Name) {
		return nil
	}
	attrs := []any{"release", last.Name, "revision", last.Version, "status", statusOf(last),
		"installed_by", installedBy(last.Labels),
		"reason", fmt.Sprintf("revision %d not labelled %s=%s", last.Version, LabelHeritage, HeritageValue)}
	if own := ownLabels(last.Labels); own != "" {
		attrs = append(attrs, "labels", own)
	}
	r.opts.Log.Warn(AdoptedMessage, attrs...)
	return &Destructive{Action: ActionAdopt, Reason: ReasonUnlabelled}
}

// AdoptedMessage is the message of the WARN record of an adoption.
const AdoptedMessage = "adopted helm release not installed by addon-operator"

// installedBy is who wrote a revision, as far as its labels tell: the
// heritage label another tool set, else helm's own (every release Secret
// has owner=helm) with no heritage: plain helm or the original
// addon-operator.
func installedBy(labels map[string]string) string {
	if h := labels[LabelHeritage]; h != "" {
		return h
	}
	return "helm without heritage label"
}

// helmLabel tells a label helm's Secret storage sets on every revision.
func helmLabel(key string) bool {
	switch key {
	case "owner", "name", "status", "version", "createdAt", "modifiedAt":
		return true
	}
	return false
}

// ownLabels lists the release's own labels ("k=v,…", sorted), helm's
// storage labels left out.
func ownLabels(labels map[string]string) string {
	var own []string
	for k, v := range labels {
		if !helmLabel(k) {
			own = append(own, k+"="+v)
		}
	}
	sort.Strings(own)
	return strings.Join(own, ",")
}
