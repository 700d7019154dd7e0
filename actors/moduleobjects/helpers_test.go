package moduleobjects_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/moduleobject"
)

func moduleGVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: moduleobject.Group, Version: moduleobject.Version, Resource: moduleobject.Resource}
}

// expectPhase fails unless Module name's status has phase.
func expectPhase(t *testing.T, dyn dynamic.Interface, name string, phase moduleobject.Phase, when string) {
	t.Helper()
	obj, err := dyn.Resource(moduleGVR()).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, _ := unstructured.NestedString(obj.Object, "status", "phase"); got != string(phase) {
		t.Fatalf("phase %q %s, want %s", got, when, phase)
	}
}
