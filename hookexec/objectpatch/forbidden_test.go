package objectpatch_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// A client the apiserver refuses (a user with no RBAC): each operation's
// error names the item, the operation and the object, and says forbidden.
func TestApplyForbidden(t *testing.T) {
	cfg, ns := kube.Config(t), kube.Namespace(t)
	admin := kubernetes.NewForConfigOrDie(cfg)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(admin.Discovery()))
	nobody := rest.CopyConfig(cfg)
	nobody.Impersonate = rest.ImpersonationConfig{UserName: "nobody"}
	applier := objectpatch.NewApplier(objectpatch.Options{Client: dynamic.NewForConfigOrDie(nobody), Mapper: mapper})
	ops, err := objectpatch.Parse([]byte(strings.ReplaceAll(`{"operation":"DeleteInBackground","kind":"ConfigMap","namespace":"$NS","name":"a"}
{"operation":"CreateOrUpdate","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","namespace":"$NS"}}}`, "$NS", ns)))
	if err != nil {
		t.Fatal(err)
	}
	err = applier.Apply(context.Background(), "demo", ops)
	for _, want := range []string{"item 0 (DeleteInBackground ConfigMap " + ns + "/a): delete: ",
		"item 1 (CreateOrUpdate ConfigMap " + ns + "/b): create: "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	}
	if err != nil && strings.Count(err.Error(), "forbidden") < 2 {
		t.Errorf("error %v: want both operations forbidden", err)
	}
}
