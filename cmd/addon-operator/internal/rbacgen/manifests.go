package rbacgen

import (
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Subject is the operator's ServiceAccount, which the bindings name.
type Subject struct {
	ServiceAccount string
	Namespace      string
}

// Names are the roles' names for the subject: the ClusterRole (and its
// binding) `<namespace>-<serviceAccount>-modules`, each Role (and binding)
// `<serviceAccount>-modules`, so that they sit beside the chart's own.
func (s Subject) Names() (cluster, namespaced string) {
	return s.Namespace + "-" + s.ServiceAccount + "-modules", s.ServiceAccount + "-modules"
}

// Manifests are the ClusterRole, the Roles and their bindings to the
// subject, in a fixed order: the ClusterRole and its binding first, then
// each namespace's Role and binding by namespace name. A scope without
// rules has no role.
func Manifests(r Rules, sub Subject) []any {
	clusterName, roleName := sub.Names()
	subjects := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sub.ServiceAccount, Namespace: sub.Namespace}}
	labels := map[string]string{"app.kubernetes.io/managed-by": "addon-operator-rbac"}
	var out []any
	if len(r.Cluster) > 0 {
		meta := metav1.ObjectMeta{Name: clusterName, Labels: labels}
		out = append(out,
			&rbacv1.ClusterRole{TypeMeta: typeMeta("ClusterRole"), ObjectMeta: meta, Rules: policyRules(r.Cluster)},
			&rbacv1.ClusterRoleBinding{TypeMeta: typeMeta("ClusterRoleBinding"), ObjectMeta: meta, Subjects: subjects,
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: clusterName}})
	}
	namespaces := make([]string, 0, len(r.Namespaced))
	for ns := range r.Namespaced {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	for _, ns := range namespaces {
		meta := metav1.ObjectMeta{Name: roleName, Namespace: ns, Labels: labels}
		out = append(out,
			&rbacv1.Role{TypeMeta: typeMeta("Role"), ObjectMeta: meta, Rules: policyRules(r.Namespaced[ns])},
			&rbacv1.RoleBinding{TypeMeta: typeMeta("RoleBinding"), ObjectMeta: meta, Subjects: subjects,
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: roleName}})
	}
	return out
}

func typeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: kind}
}

func policyRules(rules []Rule) []rbacv1.PolicyRule {
	out := make([]rbacv1.PolicyRule, 0, len(rules))
	for _, r := range rules {
		out = append(out, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: r.Resources,
			ResourceNames: r.ResourceNames, Verbs: r.Verbs})
	}
	return out
}

// FromPolicyRules converts rbac/v1 rules (resource rules only; a rule with
// only nonResourceURLs grants no resource and is dropped).
func FromPolicyRules(rules []rbacv1.PolicyRule) []Rule {
	out := make([]Rule, 0, len(rules))
	for _, r := range rules {
		if len(r.Resources) == 0 {
			continue
		}
		out = append(out, Rule{APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames, Verbs: r.Verbs})
	}
	return out
}
