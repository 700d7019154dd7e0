package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
)

// The chart's pod, created in a namespace that enforces the "restricted"
// Pod Security Standard, is admitted by the real apiserver's PodSecurity
// admission (the pod never runs: there is no kubelet). The same pod without
// its security contexts is refused, so the check can fail.
func TestChartPodPassesRestrictedPodSecurity(t *testing.T) {
	client := kube.Client(t)
	ns := restrictedNamespace(t, client)
	template := chartDeployment(t, renderedObjects(t, nil)).Spec.Template
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "admitted", Labels: template.Labels}, Spec: template.Spec}
	if _, err := client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("the chart's pod is refused in a restricted namespace: %v", err)
	}

	bare := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "refused"}, Spec: *template.Spec.DeepCopy()}
	bare.Spec.SecurityContext = nil
	for i := range bare.Spec.Containers {
		bare.Spec.Containers[i].SecurityContext = nil
	}
	_, err := client.CoreV1().Pods(ns).Create(context.Background(), bare, metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), `violates PodSecurity "restricted:latest"`) {
		t.Fatalf("the pod without security contexts: want a restricted PodSecurity refusal, got %v", err)
	}
}

// restrictedNamespace is a fresh namespace that enforces the latest
// "restricted" Pod Security Standard.
func restrictedNamespace(t *testing.T, client kubernetes.Interface) string {
	t.Helper()
	name := kube.Namespace(t)
	ns, err := client.CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels["pod-security.kubernetes.io/enforce"] = "restricted"
	ns.Labels["pod-security.kubernetes.io/enforce-version"] = "latest"
	if _, err := client.CoreV1().Namespaces().Update(context.Background(), ns, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("label namespace %s restricted: %v", name, err)
	}
	return name
}

// With rbac.existingClusterRole the chart creates no ClusterRole and binds
// the operator's ServiceAccount to the named one.
func TestChartBindsAnExistingClusterRole(t *testing.T) {
	objs := renderedObjects(t, map[string]any{"rbac": map[string]any{"existingClusterRole": "platform-addons"}})
	var bindings []*rbacv1.ClusterRoleBinding
	for _, obj := range objs {
		switch o := obj.(type) {
		case *rbacv1.ClusterRole:
			t.Fatalf("a ClusterRole %s was rendered although rbac.existingClusterRole is set", o.Name)
		case *rbacv1.ClusterRoleBinding:
			bindings = append(bindings, o)
		}
	}
	if len(bindings) != 1 || bindings[0].RoleRef.Kind != "ClusterRole" || bindings[0].RoleRef.Name != "platform-addons" {
		t.Fatalf("want one ClusterRoleBinding to ClusterRole platform-addons, got %+v", bindings)
	}
	if s := bindings[0].Subjects; len(s) != 1 || s[0].Kind != "ServiceAccount" || s[0].Name != "addon-operator" {
		t.Fatalf("binding subjects %+v", s)
	}

	// least privilege: without rules the ClusterRole has the operator's own
	// only (TestChartRBACLeastPrivilegeByDefault): its Module objects, the
	// ModuleConfigs it reads and their status, their CRDs, Events, and the
	// reviews of the 9115 listener's auth
	want := []string{"addon-operator.io/modules,modules/status", "addon-operator.io/moduleconfigs",
		"addon-operator.io/moduleconfigs/status", "apiextensions.k8s.io/customresourcedefinitions",
		"events.k8s.io/events", "authentication.k8s.io/tokenreviews", "authorization.k8s.io/subjectaccessreviews"}
	for _, obj := range renderedObjects(t, map[string]any{"clusterRules": nil}) {
		if o, ok := obj.(*rbacv1.ClusterRole); ok && (!slices.Equal(ruleTargets(o.Rules), want) || wildcard(o.Rules)) {
			t.Fatalf("no rules and no existing ClusterRole: want the operator's own rules on %q, got %+v", want, o.Rules)
		}
	}
}

// ruleTargets writes each rule's groups and resources as group/resource,...
func ruleTargets(rules []rbacv1.PolicyRule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, strings.Join(r.APIGroups, ",")+"/"+strings.Join(r.Resources, ","))
	}
	return out
}

// chartDeployment is the Deployment among the chart's objects.
func chartDeployment(t *testing.T, objs []runtime.Object) *appsv1.Deployment {
	t.Helper()
	for _, obj := range objs {
		if dep, ok := obj.(*appsv1.Deployment); ok {
			return dep
		}
	}
	t.Fatal("the chart renders no Deployment")
	return nil
}
