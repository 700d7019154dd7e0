package app

import (
	"errors"
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/addon-actors/addon-operator/forbidden"
	"github.com/addon-actors/addon-operator/hookrun"
)

// kube_forbidden_total counts each refusal a failed module run, module
// delete, global hook run or kubernetes binding carries, by owner, verb and
// group/resource; a module hook's run is counted with its module run only.
func TestForbiddenMetric(t *testing.T) {
	m := newMetrics(prometheus.NewRegistry(), "addon_operator_")
	refusal := func(verb, group, resource string) error {
		return fmt.Errorf(`x is forbidden: User "u" cannot %s resource %q in API group %q in the namespace "ops"`, verb, resource, group)
	}
	m.ModuleRun("web", "", 0, errors.Join(refusal("patch", "", "configmaps"), refusal("create", "apps", "deployments")))
	m.ModuleRun("web", "", 0, errors.New("exit status 1"))
	m.ModuleDeleteFailed("web", refusal("delete", "", "configmaps"))
	m.HookRun(hookrun.HookRun{Hook: "a.sh", Err: refusal("create", "", "secrets")})
	m.HookRun(hookrun.HookRun{Module: "web", Hook: "hooks/b.sh", Err: refusal("create", "", "secrets")})
	m.kubeForbidden("module/web", forbidden.Denial{Verb: "list", Resource: "pods"})
	for labels, want := range map[[3]string]float64{
		{"web", "patch", "configmaps"}: 1, {"web", "create", "apps/deployments"}: 1, {"web", "delete", "configmaps"}: 1,
		{"global", "create", "secrets"}: 1, {"web", "create", "secrets"}: 0, {"web", "list", "pods"}: 1,
	} {
		if got := testutil.ToFloat64(m.forbidden.WithLabelValues(labels[:]...)); got != want {
			t.Errorf("kube_forbidden_total%v = %v, want %v", labels, got, want)
		}
	}
}
