package chartrun

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"k8s.io/client-go/rest"
)

// Labels on every release this operator installs.
const (
	// LabelHeritage marks a release as ours: only such releases are
	// upgraded, deleted or purged.
	LabelHeritage = "heritage"
	// HeritageValue is LabelHeritage's value.
	HeritageValue = "addon-operator"
	// LabelChecksum holds the checksum of the chart and values a release
	// was made from.
	LabelChecksum = "addon-operator-checksum"
)

// ErrForeignRelease is returned for a release with the module's name that
// this operator did not install: it is never adopted, changed or deleted.
var ErrForeignRelease = errors.New("release exists but was not installed by addon-operator")

// Options configures a Releaser.
type Options struct {
	Log *slog.Logger
	// Timeout bounds one install, upgrade, rollback or uninstall (default 5m).
	Timeout time.Duration
	// MaxHistory is how many revisions helm keeps per release (default 10).
	MaxHistory int
}

// Releaser installs, upgrades and deletes the modules' releases in one
// namespace, through the helm library with the operator's rest config.
type Releaser struct {
	getter    *RESTGetter
	namespace string
	opts      Options
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
	return &Releaser{getter: NewRESTGetter(config, namespace), namespace: namespace, opts: opts}, nil
}

// config builds a fresh helm configuration: helm's actions write to it, so
// concurrent runs for different modules must not share one.
func (r *Releaser) config() (*action.Configuration, error) {
	cfg := &action.Configuration{}
	logf := func(format string, v ...interface{}) { r.opts.Log.Debug(fmt.Sprintf(format, v...)) }
	if err := cfg.Init(r.getter, r.namespace, "secret", logf); err != nil {
		return nil, fmt.Errorf("helm configuration: %w", err)
	}
	return cfg, nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("chartrun: empty release name")
	}
	return nil
}
