package chartrun_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"helm.sh/helm/v3/pkg/release"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// killSwitch stands for an operator killed in the middle of a helm run: at
// the first write to a ConfigMap (an object of the chart, written after helm
// has stored the pending revision) it cancels the run's context and fails
// that request and every one after it, on all of the run's clients, so that
// helm can record neither success nor failure.
type killSwitch struct {
	cancel context.CancelFunc
	dead   atomic.Bool
}

func (k *killSwitch) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method != http.MethodGet && strings.Contains(req.URL.Path, "/configmaps") && k.dead.CompareAndSwap(false, true) {
			k.cancel()
		}
		if k.dead.Load() {
			return nil, errors.New("operator killed")
		}
		return next.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// killedRun runs an upgrade to value that is killed half-way, and returns
// the status it leaves on the release's last revision.
func killedRun(t *testing.T, f fixture, value string) release.Status {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := f.through(t, (&killSwitch{cancel: cancel}).wrap)
	_, err := r.Upgrade(ctx, chartrun.Request{Release: "demo", ChartDir: f.dir,
		Values: map[string]any{"demo": map[string]any{"value": value}}})
	if err == nil {
		t.Fatal("the killed run succeeded")
	}
	return scenario.LastRelease(t, helmConfig(t, f.ns), "demo").Info.Status
}

func TestKilledRunsAreRecovered(t *testing.T) {
	tests := []struct {
		name         string
		before       []string // values of the runs that complete before the killed one
		stuck        release.Status
		want         chartrun.Action
		wantRevision int
	}{
		// pending-install: uninstalled, installed again.
		{"first install", nil, release.StatusPendingInstall, chartrun.Installed, 1},
		// pending-upgrade: rolled back to revision 1 (3), upgraded (4).
		{"upgrade", []string{"a"}, release.StatusPendingUpgrade, chartrun.Upgraded, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, logs := newLoggedFixture(t, 2)
			for _, v := range tt.before {
				f.upgrade(t, v)
			}
			if got := killedRun(t, f, "killed"); got != tt.stuck {
				t.Fatalf("killed run left %s, want %s", got, tt.stuck)
			}
			res := f.upgrade(t, "c")
			if res.Action != tt.want || res.Revision != tt.wantRevision {
				t.Fatalf("recovery: %+v, want %s at revision %d", res, tt.want, tt.wantRevision)
			}
			for _, name := range []string{"demo-0", "demo-1"} {
				if v, _ := f.value(t, name); v != "c" {
					t.Fatalf("after recovery %s = %q", name, v)
				}
			}
			// The interrupted revision is no longer pending in helm's
			// history, and the clear was logged and returned.
			history := checkNoPending(t, helmConfig(t, f.ns), "demo")
			if tt.stuck == release.StatusPendingUpgrade && history[2] != release.StatusFailed {
				t.Fatalf("interrupted revision 2 is %s; want failed (history %v)", history[2], history)
			}
			want := []chartrun.Destructive{{Action: chartrun.ActionClear, Reason: string(tt.stuck)}}
			if !reflect.DeepEqual(res.Destructive, want) {
				t.Fatalf("destructive actions %+v; want %+v", res.Destructive, want)
			}
			if got := logs.warnings("cleared stuck helm release"); len(got) != 1 || got[0]["status"] != string(tt.stuck) {
				t.Fatalf("clear records %v; want one of a %s release", got, tt.stuck)
			}
			if res := f.upgrade(t, "c"); res.Action != chartrun.Skipped {
				t.Fatalf("run after recovery: %+v, want skipped", res)
			}
		})
	}
}
