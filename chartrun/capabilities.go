package chartrun

import (
	"context"
	"fmt"
	"sync"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
)

// Clock tells the time; supervision.Clock is one.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// capsCache keeps what the cluster serves between runs. Helm asks discovery
// afresh before every action (three requests); for a hundred modules whose
// releases are up to date that is most of the operator's QPS. The cache is
// dropped after every write this releaser makes (a chart may have brought a
// CRD that the next module's templates test for) and after
// Options.CapabilitiesTTL (for what others install).
type capsCache struct {
	mu   sync.Mutex
	caps *chartutil.Capabilities
	at   time.Time
}

// capabilities returns the cluster's version and APIs. They are handed to
// helm's actions too, so that an upgrade renders exactly what the checksum
// was computed from.
func (r *Releaser) capabilities(ctx context.Context) (*chartutil.Capabilities, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.caps.mu.Lock()
	defer r.caps.mu.Unlock()
	now := r.opts.Clock.Now()
	if r.caps.caps != nil && now.Sub(r.caps.at) < r.opts.CapabilitiesTTL {
		return r.caps.caps, nil
	}
	caps, err := r.discoverCapabilities()
	if err != nil {
		return nil, err
	}
	r.caps.caps, r.caps.at = caps, now
	return caps, nil
}

// forgetCapabilities makes the next run ask the cluster again.
func (r *Releaser) forgetCapabilities() {
	r.caps.mu.Lock()
	defer r.caps.mu.Unlock()
	r.caps.caps = nil
}

func (r *Releaser) discoverCapabilities() (*chartutil.Capabilities, error) {
	dc, err := r.getter.ToDiscoveryClient()
	if err != nil {
		return nil, err
	}
	dc.Invalidate()
	version, err := dc.ServerVersion()
	if err != nil {
		return nil, fmt.Errorf("server version: %w", err)
	}
	// A group that fails discovery (an orphaned APIService) is left out,
	// not an error: helm does the same.
	apis, err := action.GetVersionSet(dc)
	if err != nil {
		return nil, fmt.Errorf("server APIs: %w", err)
	}
	return &chartutil.Capabilities{
		APIVersions: apis,
		KubeVersion: chartutil.KubeVersion{Version: version.GitVersion, Major: version.Major, Minor: version.Minor},
		HelmVersion: chartutil.DefaultCapabilities.HelmVersion,
	}, nil
}
