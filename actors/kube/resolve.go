package kube

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// resolve finds the resource of a binding's apiVersion and kind; the kind is
// matched case-insensitively (the older form writes "pod").
func resolve(mapper meta.RESTMapper, apiVersion, kind string) (*meta.RESTMapping, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	if m, err := mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: kind}, versions(gv)...); err == nil {
		return m, nil
	}
	gvk, err := mapper.KindFor(schema.GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: strings.ToLower(kind)})
	if err != nil {
		return nil, fmt.Errorf("kind %q of apiVersion %q is not served by the apiserver: %w", kind, apiVersion, err)
	}
	return mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
}

func versions(gv schema.GroupVersion) []string {
	if gv.Version == "" {
		return nil
	}
	return []string{gv.Version}
}
