package e2e_test

import (
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
)

// chartNotes renders the chart client-side and returns its NOTES.
func chartNotes(t *testing.T, values map[string]any) string {
	t.Helper()
	rel, err := renderRelease(t, values)
	if err != nil {
		t.Fatalf("render the chart: %v", err)
	}
	return rel.Info.Notes
}

func wildcard(rules []rbacv1.PolicyRule) bool {
	return slices.ContainsFunc(rules, func(r rbacv1.PolicyRule) bool {
		return slices.Contains(r.APIGroups, "*") || slices.Contains(r.Resources, "*") || slices.Contains(r.Verbs, "*")
	})
}

// The chart's default is least privilege: the operator's own rules, no
// wildcard, and a note on computing the modules' rules; rbac.rules and
// rbac.namespaceRules (addon-operator rbac -o values) are granted; a
// wildcard set by the user is granted with a warning.
func TestChartRBACLeastPrivilegeByDefault(t *testing.T) {
	roles := func(values map[string]any) (cluster *rbacv1.ClusterRole, ns map[string]*rbacv1.Role) {
		ns = map[string]*rbacv1.Role{}
		for _, o := range renderedObjects(t, values) {
			switch o := o.(type) {
			case *rbacv1.ClusterRole:
				cluster = o
			case *rbacv1.Role:
				ns[o.Namespace] = o
			}
		}
		return cluster, ns
	}
	cluster, _ := roles(nil)
	if cluster == nil || wildcard(cluster.Rules) {
		t.Fatalf("default ClusterRole %+v: want one without a wildcard", cluster)
	}
	if notes := chartNotes(t, nil); strings.Contains(notes, "WARNING") || !strings.Contains(notes, "addon-operator rbac") {
		t.Fatalf("default NOTES:\n%s", notes)
	}

	deploy := map[string]any{"apiGroups": []any{"apps"}, "resources": []any{"deployments"}, "verbs": []any{"get", "create"}}
	pods := map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"list"}}
	values := map[string]any{"rbac": map[string]any{"rules": []any{deploy},
		"namespaceRules": map[string]any{"shop": []any{pods}, "addon-operator": []any{pods}}}}
	cluster, ns := roles(values)
	if !slices.ContainsFunc(cluster.Rules, func(r rbacv1.PolicyRule) bool { return slices.Equal(r.Resources, []string{"deployments"}) }) {
		t.Fatalf("rbac.rules not in the ClusterRole: %+v", cluster.Rules)
	}
	for _, name := range []string{"shop", ""} { // "" is the release's namespace (no namespace rendered)
		r := ns[name]
		if r == nil || !slices.ContainsFunc(r.Rules, func(r rbacv1.PolicyRule) bool { return slices.Equal(r.Resources, []string{"pods"}) }) {
			t.Fatalf("rbac.namespaceRules not in the Role of %q: %+v", name, r)
		}
	}

	all := map[string]any{"clusterRules": []any{map[string]any{"apiGroups": []any{"*"}, "resources": []any{"*"}, "verbs": []any{"*"}}}}
	if cluster, _ := roles(all); !wildcard(cluster.Rules) {
		t.Fatalf("clusterRules */*/* not granted: %+v", cluster.Rules)
	}
	if notes := chartNotes(t, all); !strings.Contains(notes, "WARNING: the operator's RBAC has a wildcard") {
		t.Fatalf("no warning for a wildcard in NOTES:\n%s", notes)
	}
}
