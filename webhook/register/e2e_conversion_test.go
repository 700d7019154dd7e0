package register_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/register"
)

const group = "stable.example.com"

// convertVersion stands for a conversion hook: it relabels each object
// to (its version part) and appends the step to spec.path.
func convertVersion(_ context.Context, _ webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error) {
	var req struct {
		Objects []map[string]any `json:"objects"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, err
	}
	from, to = from[strings.LastIndex(from, "/")+1:], to[strings.LastIndex(to, "/")+1:]
	for _, obj := range req.Objects {
		obj["apiVersion"] = group + "/" + to
		spec, _ := obj["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			obj["spec"] = spec
		}
		path, _ := spec["path"].(string)
		spec["path"] = path + from + ">" + to + ";"
	}
	return json.Marshal(map[string]any{"convertedObjects": req.Objects})
}

func crontabCRD(plural string) *apiextensionsv1.CustomResourceDefinition {
	schema := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object", XPreserveUnknownFields: ptr(true)}}
	var versions []apiextensionsv1.CustomResourceDefinitionVersion
	for _, v := range []string{"v1", "v2", "v3"} {
		versions = append(versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Served: true, Storage: v == "v1", Schema: schema})
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: group, Scope: apiextensionsv1.NamespaceScoped, Versions: versions,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Kind: "CronTab" + strings.TrimPrefix(plural, "crontabs")}},
	}
}

func ptr[T any](v T) *T { return &v }

func TestConversionThroughAPIServer(t *testing.T) {
	ns := kube.Namespace(t)
	cfg := kube.Config(t)
	crds := apiextensionsclient.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	crd := crontabCRD("crontabs" + strings.ReplaceAll(ns[len(ns)-5:], "-", ""))
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = crds.ApiextensionsV1().CustomResourceDefinitions().Delete(context.Background(), crd.Name, metav1.DeleteOptions{})
	})
	eventually(t, func() error { return established(crds, crd.Name) })

	d, _, conversionURL, ca := serve(t, webhooktest.Funcs{OnConvert: convertVersion})
	owner := "conv-" + ns
	d.Set(owner, nil, []webhook.Conversion{
		{Hook: "a.sh", Name: "v1-v2", CRDName: crd.Name, Rules: []webhook.ConversionRule{{From: "v1", To: "v2"}, {From: "v2", To: "v1"}}},
		{Hook: "b.sh", Name: "v2-v3", CRDName: crd.Name, Rules: []webhook.ConversionRule{{From: group + "/v2", To: group + "/v3"}, {From: group + "/v3", To: group + "/v2"}}},
	})
	d.Ready(owner, "a.sh")
	d.Ready(owner, "b.sh")
	reg := register.New(nil, crds, "test-hooks", register.Endpoint{})
	endpoint := register.Endpoint{URL: conversionURL, CABundle: ca}
	if err := reg.ApplyConversion(ctx, crd.Name, endpoint.Conversion(webhook.ConversionPath(crd.Name))); err != nil {
		t.Fatal(err)
	}
	checkConversionNoRewrite(t, crds, reg, crd.Name, endpoint)

	gvr := func(v string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Group: group, Version: v, Resource: crd.Spec.Names.Plural}
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/v3", "kind": crd.Spec.Names.Kind,
		"metadata": map[string]any{"name": "c1"}, "spec": map[string]any{"path": ""}}}
	eventually(t, func() error {
		_, err := dyn.Resource(gvr("v3")).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Logf("create: %v", err)
		}
		return err
	})
	for v, want := range map[string]string{
		"v1": "v3>v2;v2>v1;",
		"v2": "v3>v2;v2>v1;v1>v2;",
		"v3": "v3>v2;v2>v1;v1>v2;v2>v3;",
	} {
		got, err := dyn.Resource(gvr(v)).Namespace(ns).Get(ctx, "c1", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("read at %s: %v", v, err)
		}
		if path, _, _ := unstructured.NestedString(got.Object, "spec", "path"); path != want || got.GetAPIVersion() != group+"/"+v {
			t.Errorf("read at %s: %s with path %q, want %q", v, got.GetAPIVersion(), path, want)
		}
	}

	d.Remove(owner)
	release, err := reg.ReleaseConversion(ctx, crd.Name)
	if err != nil || release.Action != register.ReleaseToNone {
		t.Fatalf("release: %+v, %v", release, err)
	}
	if _, err := dyn.Resource(gvr("v3")).Namespace(ns).List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("CR list after release: %v", err)
	}
}

// checkConversionNoRewrite applies the same conversion again and sees no
// write.
func checkConversionNoRewrite(t *testing.T, crds apiextensionsclient.Interface, reg *register.Registrar, name string, e register.Endpoint) {
	t.Helper()
	ctx := context.Background()
	version := func() string {
		c, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return c.ResourceVersion
	}
	before := version()
	if err := reg.ApplyConversion(ctx, name, e.Conversion(webhook.ConversionPath(name))); err != nil {
		t.Fatal(err)
	}
	if after := version(); after != before {
		t.Errorf("unchanged conversion rewrote the CRD: resourceVersion %s → %s", before, after)
	}
}

// established is nil once the CRD's status settled (Established), so
// that a resourceVersion compared later moves only by writes of ours.
func established(crds apiextensionsclient.Interface, name string) error {
	c, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for _, cond := range c.Status.Conditions {
		if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
			return nil
		}
	}
	return fmt.Errorf("CRD %s not established", name)
}
