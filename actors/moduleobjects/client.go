package moduleobjects

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// gvr is the Module objects' resource.
func gvr() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: moduleobject.Group, Version: moduleobject.Version,
		Resource: moduleobject.Resource}
}

// ErrCRDForbidden: the operator may not create the Module CRD.
var ErrCRDForbidden = errors.New("the Module CRD is missing and may not be created: grant the operator's ClusterRole " +
	"`customresourcedefinitions` (group apiextensions.k8s.io) verbs get, create, or install the chart's crds/modules.yaml")

// OwnerLabel names the namespace of the operator that writes an object:
// an operator lists, and deletes, only its own.
const OwnerLabel = "addon-operator.io/namespace"

// Objects is the Module objects of the operator of Namespace on the
// apiserver, through a dynamic client.
type Objects struct {
	Client    dynamic.Interface
	Namespace string
}

// EnsureCRD creates the Module CRD when it is missing (crds.EnsureOwn).
func (o Objects) EnsureCRD(ctx context.Context) error {
	err := crds.EnsureOwn(ctx, o.Client, moduleobject.CRD())
	if errors.Is(err, crds.ErrOwnForbidden) {
		return fmt.Errorf("%w: %w", ErrCRDForbidden, err)
	}
	return err
}

// List returns the objects by name with their generation and status.
func (o Objects) List(ctx context.Context) (map[string]Existing, error) {
	list, err := o.Client.Resource(gvr()).List(ctx, metav1.ListOptions{LabelSelector: OwnerLabel + "=" + o.Namespace})
	if err != nil {
		return nil, fmt.Errorf("list Module objects: %w", err)
	}
	out := make(map[string]Existing, len(list.Items))
	for _, item := range list.Items {
		ex := Existing{Generation: item.GetGeneration()}
		if raw, ok := item.Object["status"].(map[string]any); ok {
			var st moduleobject.Status
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &st); err == nil {
				ex.Status = &st
			}
		}
		out[item.GetName()] = ex
	}
	return out, nil
}

// ForeignError: the object exists, labelled as the object of the operator
// of namespace Owner (module names are cluster-wide; two operators in one
// cluster may both have a module of this name).
type ForeignError struct{ Name, Owner string }

func (e ForeignError) Error() string {
	return fmt.Sprintf("Module %s belongs to the operator of namespace %s (label %s)", e.Name, e.Owner, OwnerLabel)
}

// Create creates object name (an existing one without an owner, or of
// ours, is taken as it is; another operator's is a ForeignError) and
// writes its status; it returns the object's generation.
func (o Objects) Create(ctx context.Context, name string, st moduleobject.Status) (int64, error) {
	obj := &unstructured.Unstructured{}
	obj.SetAPIVersion(moduleobject.Group + "/" + moduleobject.Version)
	obj.SetKind(moduleobject.Kind)
	obj.SetName(name)
	obj.SetLabels(map[string]string{"app.kubernetes.io/managed-by": "addon-operator", OwnerLabel: o.Namespace})
	created, err := o.Client.Resource(gvr()).Create(ctx, obj, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		created, err = o.Client.Resource(gvr()).Get(ctx, name, metav1.GetOptions{})
	}
	if err != nil {
		return 0, fmt.Errorf("create Module %s: %w", name, err)
	}
	if owner := created.GetLabels()[OwnerLabel]; owner != "" && owner != o.Namespace {
		return 0, ForeignError{Name: name, Owner: owner}
	}
	st.ObservedGeneration = created.GetGeneration()
	return created.GetGeneration(), o.WriteStatus(ctx, name, st)
}

// WriteStatus replaces the object's status (crds.WriteStatus).
func (o Objects) WriteStatus(ctx context.Context, name string, st moduleobject.Status) error {
	return crds.WriteStatus(ctx, o.Client, gvr(), name, st)
}

// Delete deletes object name; one already gone is no error.
func (o Objects) Delete(ctx context.Context, name string) error {
	err := o.Client.Resource(gvr()).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete Module %s: %w", name, err)
	}
	return nil
}

// reference is the object an Event is about.
func reference(name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(moduleobject.Group + "/" + moduleobject.Version)
	u.SetKind(moduleobject.Kind)
	u.SetName(name)
	return u
}
