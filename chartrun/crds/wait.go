package crds

import (
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// discoveryInterval is how often discovery is asked whether an
// Established CRD's kinds are served yet (the apiserver's discovery
// follows Established within milliseconds).
const discoveryInterval = 50 * time.Millisecond

// waitServed waits, within the bound, for the CRD to be Established and
// for discovery to serve its plural in each served version.
func (in *Installer) waitServed(ctx context.Context, crd *unstructured.Unstructured) error {
	bound := in.Wait
	if bound == 0 {
		bound = DefaultWait
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	if err := in.waitEstablished(ctx, crd.GetName()); err != nil {
		return fmt.Errorf("not Established within %s: %w", bound, err)
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	for _, v := range servedVersions(crd) {
		gv := group + "/" + v
		err := wait.PollUntilContextCancel(ctx, discoveryInterval, true, func(context.Context) (bool, error) {
			list, err := in.Discovery.ServerResourcesForGroupVersion(gv)
			if err != nil {
				return false, nil // not served yet (404)
			}
			return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == plural }), nil
		})
		if err != nil {
			return fmt.Errorf("%s of %s not served within %s: %w", plural, gv, bound, err)
		}
	}
	return nil
}

// waitEstablished watches the CRD until its Established condition is True.
func (in *Installer) waitEstablished(ctx context.Context, name string) error {
	sel := fields.OneTermEqualSelector("metadata.name", name).String()
	res := in.Client.Resource(Resource)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = sel
			return res.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = sel
			return res.Watch(ctx, o)
		},
	}
	_, err := watchtools.UntilWithSync(ctx, lw, &unstructured.Unstructured{}, nil, func(ev watch.Event) (bool, error) {
		u, ok := ev.Object.(*unstructured.Unstructured)
		return ok && established(u), nil
	})
	return err
}

func established(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// servedVersions names the versions the CRD serves.
func servedVersions(c *unstructured.Unstructured) []string {
	list, _, _ := unstructured.NestedSlice(c.Object, "spec", "versions")
	var out []string
	for _, v := range list {
		if m, ok := v.(map[string]any); ok && m["served"] == true {
			if name, ok := m["name"].(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}
