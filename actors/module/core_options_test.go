package module

import (
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// TestCheckIsArmedOnce: the check is armed after a successful run, once
// while its timer is on its way, again when it fires; never without a
// clock or an interval.
func TestCheckIsArmedOnce(t *testing.T) {
	h := newHarness(t, true, nil)
	h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm")
	effects := h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	if arm := unwrap(effects[4]).(ArmCheck); arm.After != time.Minute {
		t.Errorf("armed %+v, want after the interval", arm)
	}
	h.assign(newRun(), "Publish", "RunHelm")
	h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "Publish", "Reply ok")
	h.step(CheckDue{}, "CheckObjects")
	h.step(ObjectsChecked{}, "DriftJudged", "Publish", "DriftCounted", "ArmCheck")

	for _, o := range []func(*CoreOptions){
		func(o *CoreOptions) { o.Clock = false },
		func(o *CoreOptions) { o.CheckInterval = 0 },
	} {
		opts := demoOptions(t, true, values.Sections{})
		o(&opts)
		h := harnessOf(t, NewCore(opts))
		h.step(Configured{}, "Publish", "Ready")
		h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm")
		h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
			"Observed helm=false err=false", "Publish", "Reply ok")
	}
}

// TestOptionsDecide: what the core is built with decides: the module.yaml's
// readiness and drift mode over the operator's, the configuration retried
// only with a clock and a retry policy, crds/ applied and webhooks served
// only with an applier and a server.
func TestOptionsDecide(t *testing.T) {
	on := true
	opts := demoOptions(t, true, values.Sections{})
	opts.WaitReadyTimeout, opts.Drift = time.Minute, DriftRestore
	opts.Release = layout.Release{Wait: &on, WaitTimeout: 2 * time.Minute, Drift: DriftOff}
	h := harnessOf(t, NewCore(opts))
	h.step(Configured{}, "Publish", "Ready")
	effects := h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm")
	if r := effects[2].(RunHelm); !r.Wait || r.WaitTimeout != 2*time.Minute || r.Drift {
		t.Errorf("helm step %+v, want module.yaml's wait and no drift", r)
	}

	opts = demoOptions(t, true, values.Sections{})
	opts.Retries = false
	h = harnessOf(t, NewCore(opts))
	h.step(Configured{Err: errors.New("bad")}, "StartFailed", "Publish", "Ready bad")

	hooks := hookSet(t, map[string]string{"a-hook.sh": `{"configVersion":"v1","kubernetesValidating":[{"name":"v.example.com"}]}`})
	crd := []crds.CRD{{Source: "crds/a.yaml document 1", Object: &unstructured.Unstructured{}}}
	for _, can := range []bool{true, false} {
		opts.Retries, opts.CRDs, opts.Webhooks = true, can, can
		h = harnessOf(t, NewCore(opts))
		h.step(Configured{Hooks: hooks, CRDs: crd}, "Publish", "Ready")
		if can {
			effects := h.assign(newRun(), "Publish", "ApplyCRDs")
			if a := unwrap(effects[1]).(ApplyCRDs); len(a.CRDs) != 1 {
				t.Errorf("applied %+v, want the module's crds/", a)
			}
			effects = h.step(CRDsApplied{}, "RegisterWebhooks")
			if r := unwrap(effects[0]).(RegisterWebhooks); len(r.Hooks) != 1 {
				t.Errorf("registered %+v, want the module's hooks", r)
			}
		} else {
			h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm")
		}
		if s := h.core.State(); len(s.Webhooks) != 1 {
			t.Errorf("declared webhooks %+v, want the hook's binding shown", s.Webhooks)
		}
	}
}
