package scenario

import (
	"context"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// ServiceAccountToken creates the ServiceAccount name in ns and returns a
// token of it, valid for an hour, from a TokenRequest.
func ServiceAccountToken(t testing.TB, client kubernetes.Interface, ns, name string) string {
	t.Helper()
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := client.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ServiceAccount %s/%s: %v", ns, name, err)
	}
	hour := int64(3600)
	tr, err := client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, name,
		&authnv1.TokenRequest{Spec: authnv1.TokenRequestSpec{ExpirationSeconds: &hour}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token of ServiceAccount %s/%s: %v", ns, name, err)
	}
	return tr.Status.Token
}

// CreateClusterRole creates role, deleted when the test ends.
func CreateClusterRole(t testing.TB, client kubernetes.Interface, role *rbacv1.ClusterRole) {
	t.Helper()
	if _, err := client.RbacV1().ClusterRoles().Create(context.Background(), role, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterRole %s: %v", role.Name, err)
	}
	t.Cleanup(func() {
		_ = client.RbacV1().ClusterRoles().Delete(context.Background(), role.Name, metav1.DeleteOptions{})
	})
}

// BindClusterRole binds the ServiceAccount sa of ns to the ClusterRole role
// (a ClusterRoleBinding deleted when the test ends) and waits until sa may
// get the non-resource URL path (WaitAllowed).
func BindClusterRole(t testing.TB, client kubernetes.Interface, ns, sa, role, path string) {
	t.Helper()
	ctx := context.Background()
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + sa + "-" + role},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: ns}}}
	if _, err := client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("bind %s/%s to ClusterRole %s: %v", ns, sa, role, err)
	}
	t.Cleanup(func() {
		_ = client.RbacV1().ClusterRoleBindings().Delete(context.Background(), binding.Name, metav1.DeleteOptions{})
	})
	WaitAllowed(t, client, ns, sa, path)
}

// WaitAllowed waits until the apiserver's authorizer, which learns of
// bindings from its informers, allows the ServiceAccount sa of ns to get
// the non-resource URL path.
func WaitAllowed(t testing.TB, client kubernetes.Interface, ns, sa, path string) {
	t.Helper()
	ctx := context.Background()
	user := "system:serviceaccount:" + ns + ":" + sa
	review := &authzv1.SubjectAccessReview{Spec: authzv1.SubjectAccessReviewSpec{User: user,
		Groups:                []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
		NonResourceAttributes: &authzv1.NonResourceAttributes{Path: path, Verb: "get"}}}
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := client.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		return err == nil && got.Status.Allowed, err
	})
	if err != nil {
		t.Fatalf("%s is not allowed to get %s: %v", user, path, err)
	}
}
