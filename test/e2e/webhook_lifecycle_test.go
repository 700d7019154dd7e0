package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// crontabs is the guard's CRD at version v.
func crontabs(group, v string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: group, Version: v, Resource: "crontabs"}
}

// checkChain reads c1 (created at v1) and c3 (created at v3) at every
// version: each read went through the hooks' steps.
func checkChain(t *testing.T, dyn dynamic.Interface, ns, group string) {
	t.Helper()
	want := map[string]map[string]string{
		"c1": {"v1": "", "v2": "v1>v2;", "v3": "v1>v2;v2>v3;"},
		"c3": {"v1": "v3>v2;v2>v1;", "v2": "v3>v2;v2>v1;v1>v2;", "v3": "v3>v2;v2>v1;v1>v2;v2>v3;"},
	}
	for name, byVersion := range want {
		for v, path := range byVersion {
			got, err := dyn.Resource(crontabs(group, v)).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("read %s at %s: %v", name, v, err)
			}
			if p, _, _ := unstructured.NestedString(got.Object, "spec", "path"); p != path || got.GetAPIVersion() != group+"/"+v {
				t.Errorf("read %s at %s: %s with path %q, want %q", name, v, got.GetAPIVersion(), p, path)
			}
		}
	}
}

func crontab(group, v, name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/" + v, "kind": "CronTab",
		"metadata": map[string]any{"name": name}, "spec": map[string]any{"path": ""}}}
}

func conversionStrategy(t *testing.T, crds apiextensionsclient.Interface, name string) apiextensionsv1.ConversionStrategyType {
	t.Helper()
	crd, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if crd.Spec.Conversion == nil {
		return ""
	}
	return crd.Spec.Conversion.Strategy
}

// startCRDGuard is startGuard with clients for the guard's CRD and its
// objects.
func startCRDGuard(t *testing.T) (op *operator, ns, group string, client kubernetes.Interface,
	dyn dynamic.Interface, crds apiextensionsclient.Interface) {
	t.Helper()
	op, _, ns, group, client, _ = startGuard(t)
	cfg := kube.Config(t)
	return op, ns, group, client, dynamic.NewForConfigOrDie(cfg), apiextensionsclient.NewForConfigOrDie(cfg)
}

// The guard's conversion chain v1 → v2 → v3 across two hooks converts its
// CRD's objects at every version. Disabled (ConfigMap guardEnabled:
// "false"), its configurations are gone, the CRD converts without webhook
// (its objects are stored at v1, the storage version) and stays
// readable, and a ConfigMap it denied is allowed; enabled again, all is
// back.
func TestWebhookFollowsTheModule(t *testing.T) {
	op, ns, group, client, dyn, crds := startCRDGuard(t)
	crd := "crontabs." + group
	ctx := context.Background()
	if s := conversionStrategy(t, crds, crd); s != apiextensionsv1.WebhookConverter {
		t.Fatalf("conversion %q, want Webhook", s)
	}
	if _, err := dyn.Resource(crontabs(group, "v1")).Namespace(ns).Create(ctx, crontab(group, "v1", "c1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	retryUntil(t, "c3 created at v3", func() error {
		_, err := dyn.Resource(crontabs(group, "v3")).Namespace(ns).Create(ctx, crontab(group, "v3", "c3"), metav1.CreateOptions{})
		return err
	})
	checkChain(t, dyn, ns, group)
	why := op.cli(t, "module", "why", "guard")
	for _, want := range []string{"Validating policy.guard.example.com (hook hooks/validate) at /guard/policy-guard-example-com: ready",
		"Mutating labels.guard.example.com (hook hooks/mutate) at /guard/labels-guard-example-com: ready",
		"Conversion v2-v3 (hook hooks/convert-b) at /" + crd + ": ready",
		"Validating snap.guard.example.com (hook hooks/snap) at /guard/snap-guard-example-com: ready"} {
		if !strings.Contains(why, want) {
			t.Errorf("module why guard does not show %q:\n%s", want, why)
		}
	}

	plan, _ := runPlan(t, op, "--set", "guardEnabled=false")
	if want := "webhook Validating policy.guard.example.com (hook hooks/validate) at /guard/policy-guard-example-com: removed"; !strings.Contains(plan, want) {
		t.Errorf("plan of the disable does not show %q:\n%s", want, plan)
	}

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"guardEnabled": "false"}}
	registered := op.count("webhooks registered", map[string]any{"owner": "guard"})
	cm, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, "webhooks removed", map[string]any{"owner": "guard"})
	if configurationExists(t, client, ns+"-guard") {
		t.Fatal("the guard's validating configuration is still there")
	}
	if why := op.cli(t, "module", "why", "guard"); strings.Contains(why, "WEBHOOK") {
		t.Errorf("module why guard shows webhooks after the disable:\n%s", why)
	}
	if s := conversionStrategy(t, crds, crd); s != apiextensionsv1.NoneConverter {
		t.Fatalf("conversion %q after the disable, want None", s)
	}
	if _, err := dyn.Resource(crontabs(group, "v1")).Namespace(ns).List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("list crontabs after the disable: %v", err)
	}
	retryUntil(t, "deny-after allowed", func() error {
		_, err := client.CoreV1().ConfigMaps(ns).Create(ctx, labelled("deny-after", "yes"), metav1.CreateOptions{})
		return err
	})

	cm.Data["guardEnabled"] = "true"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitLog(t, time.Minute, "the guard's webhooks registered again", func(recs []map[string]any) bool {
		n := 0
		for _, rec := range recs {
			if matches(rec, "webhooks registered", map[string]any{"owner": "guard"}) {
				n++
			}
		}
		return n > registered
	})
	waitDenied(t, client, ns, "deny-again")
	if s := conversionStrategy(t, crds, crd); s != apiextensionsv1.WebhookConverter {
		t.Fatalf("conversion %q after enabling again, want Webhook", s)
	}
	checkChain(t, dyn, ns, group)
}

// A CRD whose objects are stored in a version other than its storage
// version keeps its conversion when the module is disabled: it is still
// served (WARN, module why says kept) and the objects stay readable at
// every version.
func TestWebhookConversionKeptWhileObjectsNeedIt(t *testing.T) {
	op, ns, group, client, dyn, crds := startCRDGuard(t)
	crdName := "crontabs." + group
	ctx := context.Background()
	if _, err := dyn.Resource(crontabs(group, "v1")).Namespace(ns).Create(ctx, crontab(group, "v1", "c1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crd, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crdName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range crd.Spec.Versions { // storage moves to v3: c3 is stored there
		crd.Spec.Versions[i].Storage = crd.Spec.Versions[i].Name == "v3"
	}
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, crd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	retryUntil(t, "c3 stored at v3", func() error {
		if _, err := dyn.Resource(crontabs(group, "v3")).Namespace(ns).Create(ctx, crontab(group, "v3", "c3"), metav1.CreateOptions{}); err != nil {
			return err
		}
		c, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crdName, metav1.GetOptions{})
		if err == nil && len(c.Status.StoredVersions) < 2 {
			return fmt.Errorf("storedVersions %v", c.Status.StoredVersions)
		}
		return err
	})
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"guardEnabled": "false"}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, "conversion webhook kept: the CRD's objects need it", map[string]any{"owner": "guard", "crd": crdName})
	op.waitRecord(t, "webhooks removed", map[string]any{"owner": "guard"})
	if s := conversionStrategy(t, crds, crdName); s != apiextensionsv1.WebhookConverter {
		t.Fatalf("conversion %q, want Webhook kept", s)
	}
	if configurationExists(t, client, ns+"-guard") {
		t.Fatal("the guard's validating configuration is still there")
	}
	for _, v := range []string{"v1", "v2", "v3"} {
		if _, err := dyn.Resource(crontabs(group, v)).Namespace(ns).Get(ctx, "c1", metav1.GetOptions{}); err != nil {
			t.Fatalf("read c1 at %s with the conversion kept: %v", v, err)
		}
	}
	if why := op.cli(t, "module", "why", "guard"); !strings.Contains(why, "Conversion v1-v2 (hook hooks/convert-a) at /"+crdName+": ready; kept") {
		t.Errorf("module why guard does not show the kept conversion:\n%s", why)
	}
	// The test deletes the CRD: the apiserver then stops calling us.
}

// A module's dir removed while it runs: its webhooks are removed and its
// CRD's conversion released.
func TestWebhookRemovedWithTheModuleDir(t *testing.T) {
	op, root, ns, group, client, _ := startGuard(t, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=1s")
	crds := apiextensionsclient.NewForConfigOrDie(kube.Config(t))
	if err := os.RemoveAll(filepath.Join(root, "modules", "001-guard")); err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, "webhooks removed", map[string]any{"owner": "guard"})
	if configurationExists(t, client, ns+"-guard") {
		t.Fatal("the guard's validating configuration is still there")
	}
	if s := conversionStrategy(t, crds, "crontabs."+group); s != apiextensionsv1.NoneConverter {
		t.Fatalf("conversion %q after the dir went, want None", s)
	}
}
