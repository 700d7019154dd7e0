package kube_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/forbidden"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// A binding on ConfigMaps its service account may not list is logged as an
// error naming the hook, binding, verb, resource and namespace, counted and
// retried; once it may list (but not watch) it syncs and the refused watch
// is reported; once it may watch, events run the hook.
func TestForbiddenWatchRetriedUntilAllowed(t *testing.T) {
	ns := testKube.Namespace(t)
	admin := testKube.Config(t)
	client := kubernetes.NewForConfigOrDie(admin)
	ctx := context.Background()
	createLabelled(t, client.CoreV1().ConfigMaps(ns), "before")
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "watcher"}}
	if _, err := client.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tr, err := client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "watcher", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &rest.Config{Host: admin.Host, BearerToken: tr.Status.Token,
		TLSClientConfig: rest.TLSClientConfig{CAData: admin.CAData, CAFile: admin.CAFile}}

	logs := make(chan slog.Record, 256)
	counted, refused := make(chan string, 256), make(chan string, 256)
	kit, pid, queue, report := spawnKube(t, cfg, kube.Options{Log: slog.New(actortest.LogHandler(logs)),
		Errors: func(owner, hook, binding string) { counted <- owner + "/" + hook + "/" + binding },
		Forbidden: func(owner string, d forbidden.Denial) {
			refused <- owner + " " + d.Verb + " " + d.GroupResource() + " " + d.Namespace
		}})
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{namedMonitor(t, ns)}})

	want := map[string]string{"owner": "global", "hook": "h", "binding": "cms", "verb": "list", "resource": "configmaps", "namespace": ns}
	actortest.ExpectLog(t, logs, slog.LevelError, "not allowed to list configmaps", want)
	expectCounted(t, counted, "global/h/cms")
	expectCounted(t, refused, "global list configmaps "+ns) // kube_forbidden_total
	rule := `add the rule {apiGroups: [""], resources: ["configmaps"], verbs: ["list"]} to a Role in namespace ` + ns
	actortest.ExpectLog(t, logs, slog.LevelError, "not allowed to list configmaps; retrying; forbidden: list configmaps in namespace "+ns+"; "+rule, want)
	actortest.ExpectLog(t, logs, slog.LevelError, "not allowed to list configmaps", want) // retried

	grant(t, client, ns, "get", "list")
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	if sync := contextsOf(t, expectTask(queue, time.Minute)); len(sync) != 1 || len(sync[0].Objects) != 1 {
		t.Fatalf("Synchronization %+v, want one context with the ConfigMap", sync)
	}
	want["verb"] = "watch"
	actortest.ExpectLog(t, logs, slog.LevelError, "not allowed to watch configmaps", want)

	grant(t, client, ns, "get", "list", "watch")
	createLabelled(t, client.CoreV1().ConfigMaps(ns), "after")
	expectEvents(t, queue, event{"Added", "after"})
}

// grant lets the service account watcher use verbs on the ConfigMaps of ns.
func grant(t *testing.T, client kubernetes.Interface, ns string, verbs ...string) {
	t.Helper()
	ctx := context.Background()
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "watcher"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: verbs}}}
	if _, err := client.RbacV1().Roles(ns).Get(ctx, "watcher", metav1.GetOptions{}); err == nil {
		if _, err := client.RbacV1().Roles(ns).Update(ctx, role, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := client.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "watcher"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "watcher"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "watcher", Namespace: ns}}}
	if _, err := client.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func expectCounted(t *testing.T, counted <-chan string, want string) {
	t.Helper()
	select {
	case got := <-counted:
		if got != want {
			t.Fatalf("error counted for %s, want %s", got, want)
		}
	case <-time.After(time.Minute):
		t.Fatal("no error counted within a minute")
	}
}
