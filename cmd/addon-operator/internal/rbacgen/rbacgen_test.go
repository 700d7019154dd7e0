package rbacgen_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/rbacgen"
	"github.com/addon-actors/addon-operator/layout"
)

func rule(group string, resources, verbs []string, names ...string) rbacgen.Rule {
	r := rbacgen.Rule{APIGroups: []string{group}, Resources: resources, Verbs: verbs}
	if len(names) > 0 {
		r.ResourceNames = names
	}
	return r
}

var (
	all   = []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	watch = []string{"get", "list", "watch"}
)

func TestComputeReleaseObjectsBindingsWebhooksAndModuleRules(t *testing.T) {
	in := rbacgen.Input{
		Namespace: "ops",
		Objects: []rbacgen.Object{
			{Module: "web", APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			{Module: "web", APIVersion: "v1", Kind: "Service", Name: "web", Namespace: "shop"},
			{Module: "web", APIVersion: "v1", Kind: "Namespace", Name: "fresh"},
			{Module: "web", APIVersion: "v1", Kind: "ServiceAccount", Name: "x", Namespace: "fresh"},
			{Module: "web", APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "r"},
		},
		Watches: []rbacgen.Watch{
			{Owner: "global", Hook: "a.sh", APIVersion: "v1", Kind: "Pod"},
			{Owner: "web", Hook: "b.sh", APIVersion: "v1", Kind: "Secret", Namespaces: []string{"shop"}},
		},
		Validating: true, ConversionCRDs: []string{"crontabs.stable.example.com"},
		Rules: []rbacgen.ModuleRule{{Module: "web", Rule: layout.PolicyRule{APIGroups: []string{""},
			Resources: []string{"configmaps"}, Verbs: []string{"patch"}, ResourceNames: []string{"settings"}, Namespaces: []string{"kube-system"}}}},
	}
	set, err := rbacgen.Compute(in, rbacgen.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	got := set.Merge()
	wantCluster := []rbacgen.Rule{
		rule("", []string{"namespaces", "serviceaccounts"}, all), // in a namespace a release creates: cluster-wide
		rule("", []string{"pods"}, watch),
		// the ModuleConfig objects: read, status written (operator's own)
		rule("addon-operator.io", []string{"moduleconfigs"}, watch),
		rule("addon-operator.io", []string{"moduleconfigs/status"}, []string{"patch"}),
		// the Module objects, their CRD and their Events (operator's own)
		rule("addon-operator.io", []string{"modules", "modules/status"}, all),
		rule("admissionregistration.k8s.io", []string{"validatingwebhookconfigurations"}, []string{"create", "delete", "get", "update"}),
		rule("apiextensions.k8s.io", []string{"customresourcedefinitions"}, []string{"create", "get", "watch"}),
		rule("apiextensions.k8s.io", []string{"customresourcedefinitions"}, []string{"update"}, "crontabs.stable.example.com"),
		rule("authentication.k8s.io", []string{"tokenreviews"}, []string{"create"}),
		rule("authorization.k8s.io", []string{"subjectaccessreviews"}, []string{"create"}),
		rule("events.k8s.io", []string{"events"}, []string{"create", "patch"}),
		rule("rbac.authorization.k8s.io", []string{"clusterroles"}, all),
	}
	if !reflect.DeepEqual(got.Cluster, wantCluster) {
		t.Errorf("cluster rules\n%+v\nwant\n%+v", got.Cluster, wantCluster)
	}
	wantShop := []rbacgen.Rule{rule("", []string{"secrets"}, watch), rule("", []string{"services"}, all)}
	if !reflect.DeepEqual(got.Namespaced["shop"], wantShop) {
		t.Errorf("shop rules\n%+v\nwant\n%+v", got.Namespaced["shop"], wantShop)
	}
	wantKubeSystem := []rbacgen.Rule{rule("", []string{"configmaps"}, []string{"patch"}, "settings")}
	if !reflect.DeepEqual(got.Namespaced["kube-system"], wantKubeSystem) {
		t.Errorf("kube-system rules %+v, want %+v", got.Namespaced["kube-system"], wantKubeSystem)
	}
	ops := got.Namespaced["ops"]
	// the Deployment's pods are watched cluster-wide already (global a.sh):
	// the Role has no pods rule
	wantOps := []rbacgen.Rule{
		rule("", []string{"configmaps"}, []string{"create", "get", "list", "patch", "update", "watch"}),
		rule("", []string{"events"}, []string{"create", "patch"}),
		rule("", []string{"secrets"}, all),
		rule("apps", []string{"deployments"}, all),
		rule("apps", []string{"replicasets"}, watch),
		rule("coordination.k8s.io", []string{"leases"}, []string{"create", "get", "patch", "update"}),
	}
	if !reflect.DeepEqual(ops, wantOps) {
		t.Errorf("ops rules\n%+v\nwant\n%+v", ops, wantOps)
	}
	if _, ok := got.Namespaced["fresh"]; ok {
		t.Errorf("a Role in a namespace that a release creates: %+v", got.Namespaced["fresh"])
	}
}

func TestComputeUnknownKindNamesModuleAndHook(t *testing.T) {
	in := rbacgen.Input{Namespace: "ops",
		Objects: []rbacgen.Object{{Module: "web", APIVersion: "x.io/v1", Kind: "Widget", Name: "w"}},
		Watches: []rbacgen.Watch{{Owner: "global", Hook: "a.sh", APIVersion: "y.io/v1", Kind: "Gadget"}}}
	_, err := rbacgen.Compute(in, rbacgen.BuiltIn())
	if !errors.Is(err, rbacgen.ErrUnknownKind) {
		t.Fatalf("error %v, want ErrUnknownKind", err)
	}
	for _, want := range []string{`module web: release object x.io/v1 Widget: unknown kind Widget in API group "x.io"`,
		`global: hook a.sh: kubernetes binding on y.io/v1 Gadget: unknown kind Gadget`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	table := rbacgen.Table{}
	table.AddCRD("x.io", "Widget", "widgets", false)
	table.AddCRD("y.io", "Gadget", "gadgets", true)
	set, err := rbacgen.Compute(in, rbacgen.Chain{rbacgen.BuiltIn(), table})
	if err != nil {
		t.Fatal(err)
	}
	if !set.Merge().Allows(rbacgen.Grant{Group: "x.io", Resource: "widgets", Verb: "create"}) {
		t.Fatal("the CRD's kind is not granted")
	}
}

func TestMergeIsDeterministic(t *testing.T) {
	var a, b rbacgen.Set
	a.Add("", "apps", "deployments", []string{"get", "list"})
	a.Add("", "", "pods", []string{"list", "get"})
	b.Add("", "", "pods", []string{"get"})
	b.Add("", "apps", "deployments", []string{"list"})
	b.Add("", "", "pods", []string{"list"})
	b.Add("", "apps", "deployments", []string{"get"})
	if x, y := a.Merge(), b.Merge(); !reflect.DeepEqual(x, y) {
		t.Fatalf("%+v != %+v", x, y)
	}
}

func TestMissing(t *testing.T) {
	var needed rbacgen.Set
	needed.Add("ops", "", "configmaps", []string{"get", "patch"})
	needed.Add("", "apps", "deployments", []string{"get", "create"})
	needed.Add("", "", "configmaps", []string{"get"}, "one")
	granted := rbacgen.Rules{
		Cluster:    []rbacgen.Rule{rule("apps", []string{"*"}, []string{"get"}), rule("", []string{"configmaps"}, []string{"get"}, "one")},
		Namespaced: map[string][]rbacgen.Rule{"ops": {rule("", []string{"configmaps"}, []string{"get"})}},
	}
	got := rbacgen.Missing(needed, granted)
	want := rbacgen.Rules{
		Cluster:    []rbacgen.Rule{rule("apps", []string{"deployments"}, []string{"create"})},
		Namespaced: map[string][]rbacgen.Rule{"ops": {rule("", []string{"configmaps"}, []string{"patch"})}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("missing %+v, want %+v", got, want)
	}
	wildcard := rbacgen.Rules{Cluster: []rbacgen.Rule{rule("*", []string{"*"}, []string{"*"})}}
	if m := rbacgen.Missing(needed, wildcard); !m.Empty() {
		t.Fatalf("*/*/* leaves %+v", m)
	}
}
