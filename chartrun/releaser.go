package chartrun

import (
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"helm.sh/helm/v3/pkg/chartutil"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
)

// Labels on every release this operator installs (helm stores them on the
// release's Secret).
const (
	// LabelHeritage marks a release as ours: only such releases are listed
	// (so purged when their module dir is gone). A module's release without
	// it is adopted: upgraded, and labelled from then on.
	LabelHeritage = "heritage"
	// HeritageValue is LabelHeritage's value.
	HeritageValue = "addon-operator"
	// LabelChecksum holds the checksum (see Checksum) of the manifests and
	// values a release was made from.
	LabelChecksum = "addon-operator-checksum"
	// LabelModuleChecksum is the original addon-operator's checksum label.
	// Every revision written here sets it to this operator's checksum,
	// which the original never computes, so that a cluster handed back to
	// it is upgraded once per module: a value of its own left on a release
	// written here since (helm keeps a release's labels from revision to
	// revision) would make it skip a release whose objects it did not
	// render, and a release without the label fails its module runs.
	LabelModuleChecksum = "moduleChecksum"
)

var (
	// ErrIgnoredRelease is returned for the release named by
	// Options.IgnoreRelease (HELM_IGNORE_RELEASE).
	ErrIgnoredRelease = errors.New("release is ignored (HELM_IGNORE_RELEASE)")
	// ErrNotDeployed is returned by AbsentResources when the release has no
	// deployed revision.
	ErrNotDeployed = errors.New("release has no deployed revision")
)

// Options configures a Releaser.
type Options struct {
	// Log receives what the releaser does; nil discards.
	Log *slog.Logger
	// Timeout bounds one install, upgrade, rollback or uninstall (default 5m).
	Timeout time.Duration
	// MaxHistory is how many revisions helm keeps per release (default 10).
	MaxHistory int
	// IgnoreRelease names a release (HELM_IGNORE_RELEASE, typically the
	// operator's own) that is never listed, upgraded or deleted.
	IgnoreRelease string
	// CapabilitiesTTL is how long the cluster's version and APIs are kept
	// between runs that write nothing (default 1m).
	CapabilitiesTTL time.Duration
	// Clock times CapabilitiesTTL (default: the real clock).
	Clock Clock
}

// Releaser installs, upgrades and deletes the modules' releases in one
// namespace, through the helm library with the operator's rest config (its
// credentials, QPS and burst). It is safe for concurrent use by different
// modules; runs for one release must not overlap (the module actor runs
// them one at a time).
type Releaser struct {
	getter    *RESTGetter
	meta      metadata.Interface
	namespace string
	opts      Options
	caps      capsCache
	dyn       dynamic.Interface
	index     startIndex
	objects   objectIndex // names, for the first runs after a start
	live      objectIndex // whole objects, for the drift checks
	adopted   adoptions
	factory   helmFactory
	gzips     gzipWriters
	// readyWatches counts the followers of waits in progress (tests check
	// that none outlives its wait).
	readyWatches atomic.Int32
}

// NewReleaser returns a releaser for the releases in namespace.
func NewReleaser(config *rest.Config, namespace string, opts Options) (*Releaser, error) {
	if namespace == "" {
		return nil, errors.New("chartrun: empty namespace")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Minute
	}
	if opts.MaxHistory <= 0 {
		opts.MaxHistory = 10
	}
	if opts.CapabilitiesTTL <= 0 {
		opts.CapabilitiesTTL = time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	meta, err := metadata.NewForConfig(config)
	if err != nil {
		return nil, fmt.Errorf("chartrun: metadata client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, fmt.Errorf("chartrun: dynamic client: %w", err)
	}
	return &Releaser{getter: NewRESTGetter(config, namespace), meta: meta, dyn: dyn, namespace: namespace, opts: opts,
		objects: objectIndex{log: opts.Log, lists: metadataLister(meta), watchFor: startIndexWatch},
		live:    objectIndex{log: opts.Log, lists: objectLister(dyn), watchFor: liveIndexWatch}}, nil
}

// checkName refuses an empty or invalid release name and the ignored one.
func (r *Releaser) checkName(name string) error {
	if name == "" {
		return errors.New("chartrun: empty release name")
	}
	if err := chartutil.ValidateReleaseName(name); err != nil {
		return fmt.Errorf("chartrun: release name %q: %w", name, err)
	}
	if name == r.opts.IgnoreRelease {
		return fmt.Errorf("%s: %w", name, ErrIgnoredRelease)
	}
	return nil
}
