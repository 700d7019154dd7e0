package crds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"
)

// The operator's own CRDs (the Module and ModuleConfig objects) are
// embedded in the binary and shipped in the chart. EnsureOwn creates one
// when it is missing and never updates one (the chart owns its updates),
// which needs the verbs get, create and watch only; WriteStatus writes an
// own object's status. They are shared by the writers of those objects.

// ErrOwnForbidden: the operator may not read or create its own CRD.
var ErrOwnForbidden = errors.New("the CRD is missing and may not be created: grant the operator's ClusterRole " +
	"`customresourcedefinitions` (group apiextensions.k8s.io) verbs get, create, watch, or install the chart's crds/")

// OwnEstablishTimeout bounds the wait for a created own CRD to be served.
const OwnEstablishTimeout = 30 * time.Second

// EnsureOwn creates the CRD of manifest when it is missing and waits until
// it is Established; an existing one is left as it is.
func EnsureOwn(ctx context.Context, client dynamic.Interface, manifest []byte) error {
	crd := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(manifest, &crd.Object); err != nil {
		return fmt.Errorf("read the embedded CRD: %w", err)
	}
	name := crd.GetName()
	_, err := client.Resource(Resource).Get(ctx, name, metav1.GetOptions{})
	switch {
	case err == nil:
		return nil
	case apierrors.IsForbidden(err):
		return fmt.Errorf("get CRD %s: %w: %w", name, ErrOwnForbidden, err)
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("get CRD %s: %w", name, err)
	}
	_, err = client.Resource(Resource).Create(ctx, crd, metav1.CreateOptions{})
	switch {
	case apierrors.IsForbidden(err):
		return fmt.Errorf("create CRD %s: %w: %w", name, ErrOwnForbidden, err)
	case err != nil && !apierrors.IsAlreadyExists(err):
		return fmt.Errorf("create CRD %s: %w", name, err)
	}
	return ownEstablished(ctx, client, name)
}

// ownEstablished waits, by a watch on the one CRD (no list: the verbs are
// get, create and watch), until it is Established.
func ownEstablished(ctx context.Context, client dynamic.Interface, name string) error {
	ctx, cancel := context.WithTimeout(ctx, OwnEstablishTimeout)
	defer cancel()
	w, err := client.Resource(Resource).Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		return fmt.Errorf("watch CRD %s: %w", name, err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if u, ok := ev.Object.(*unstructured.Unstructured); ok && established(u) {
			return nil
		}
	}
	return fmt.Errorf("CRD %s not established within %s", name, OwnEstablishTimeout)
}

// WriteStatus replaces the status of the cluster-scoped object name of
// resource through the status subresource (a JSON patch: no read, no
// conflict).
func WriteStatus(ctx context.Context, client dynamic.Interface, resource schema.GroupVersionResource, name string, status any) error {
	patch, err := json.Marshal([]map[string]any{{"op": "add", "path": "/status", "value": status}})
	if err != nil {
		return fmt.Errorf("status of %s %s: %w", resource.Resource, name, err)
	}
	_, err = client.Resource(resource).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		return fmt.Errorf("write status of %s %s: %w", resource.Resource, name, err)
	}
	return nil
}
