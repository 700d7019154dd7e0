package layout_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
)

func TestParseModuleYAMLRBAC(t *testing.T) {
	text := `rbac:
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, patch]
    resourceNames: [settings]
    namespaces: [kube-system]
  - apiGroups: [apps]
    resources: [deployments, deployments/scale]
    verbs: ["*"]
`
	got, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []layout.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "patch"},
			ResourceNames: []string{"settings"}, Namespaces: []string{"kube-system"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments", "deployments/scale"}, Verbs: []string{"*"}},
	}
	if !reflect.DeepEqual(got.RBAC, want) {
		t.Fatalf("rbac %+v, want %+v", got.RBAC, want)
	}
}

func TestParseModuleYAMLRBACErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"not a list", "rbac: {a: 1}\n", ": rbac: want a list of rules, got a mapping (line 1)"},
		{"unknown key", "rbac:\n  - apiGroup: [apps]\n", ": rbac[0].apiGroup: unknown key; want apiGroups, resources, verbs, resourceNames or namespaces (line 2)"},
		{"no verbs", "rbac:\n  - apiGroups: [apps]\n    resources: [deployments]\n", ": rbac[0].verbs: a rule needs at least one verb (line 2)"},
		{"empty verbs", "rbac:\n  - apiGroups: [apps]\n    resources: [deployments]\n    verbs: []\n", ": rbac[0].verbs: a rule needs at least one verb (line 2)"},
		{"bad verb", "rbac:\n  - apiGroups: [apps]\n    resources: [deployments]\n    verbs: [get, remove]\n", `: rbac[0].verbs[1]: unknown verb "remove"; want one of get, list`},
		{"no resources", "rbac:\n  - apiGroups: [apps]\n    verbs: [get]\n", ": rbac[0].resources: a rule needs at least one resource (line 2)"},
		{"no apiGroups", "rbac:\n  - resources: [pods]\n    verbs: [get]\n", `: rbac[0].apiGroups: a rule needs its API groups ("" is the core group) (line 2)`},
		{"verbs a string", "rbac:\n  - apiGroups: ['']\n    resources: [pods]\n    verbs: get\n", `: rbac[0].verbs: want a list of strings, got !!str "get" (line 4)`},
		{"empty resource", "rbac:\n  - apiGroups: ['']\n    resources: ['']\n    verbs: [get]\n", `: rbac[0].resources[0]: want a name, got an empty string (line 3)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
			if err == nil || !strings.HasPrefix(err.Error(), moduleYAMLPath+tc.want) {
				t.Fatalf("error %v, want one starting %q", err, moduleYAMLPath+tc.want)
			}
		})
	}
}
