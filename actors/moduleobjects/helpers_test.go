package moduleobjects_test

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/moduleobject"
)

func moduleGVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: moduleobject.Group, Version: moduleobject.Version, Resource: moduleobject.Resource}
}

func unstructuredString(obj map[string]any, fields ...string) (string, bool, error) {
	return unstructured.NestedString(obj, fields...)
}
