package crds

import (
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// withLabels is the CRD of a file with the extra labels set over its own.
func withLabels(c *unstructured.Unstructured, extra map[string]string) *unstructured.Unstructured {
	out := c.DeepCopy()
	labels := out.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range extra {
		labels[k] = v
	}
	out.SetLabels(labels)
	return out
}

// prunedStoredVersions is the cluster CRD's status.storedVersions less the
// versions the desired spec no longer lists; changed tells whether any
// went (the status subresource is then updated first, or the apiserver
// refuses a spec without a stored version).
func prunedStoredVersions(cur, desired *unstructured.Unstructured) (stored []string, changed bool) {
	have, _, _ := unstructured.NestedStringSlice(cur.Object, "status", "storedVersions")
	keep := specVersions(desired)
	for _, v := range have {
		if slices.Contains(keep, v) {
			stored = append(stored, v)
		}
	}
	return stored, len(stored) != len(have)
}

// specVersions names the versions of spec.versions.
func specVersions(c *unstructured.Unstructured) []string {
	list, _, _ := unstructured.NestedSlice(c.Object, "spec", "versions")
	var out []string
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// updated is the cluster CRD cur with the desired spec (keeping cur's
// spec.conversion: a webhook's CA bundle is injected in the cluster),
// labels and annotations; nil when they are equal already.
func updated(cur, desired *unstructured.Unstructured) *unstructured.Unstructured {
	spec, _, _ := unstructured.NestedMap(desired.Object, "spec")
	if spec == nil {
		spec = map[string]any{}
	}
	if conv, ok, _ := unstructured.NestedFieldCopy(cur.Object, "spec", "conversion"); ok {
		spec["conversion"] = conv
	}
	curSpec, _, _ := unstructured.NestedMap(cur.Object, "spec")
	if reflect.DeepEqual(curSpec, spec) && equalMaps(cur.GetLabels(), desired.GetLabels()) &&
		equalMaps(cur.GetAnnotations(), desired.GetAnnotations()) {
		return nil
	}
	next := cur.DeepCopy()
	next.Object["spec"] = spec
	next.SetLabels(desired.GetLabels())
	next.SetAnnotations(desired.GetAnnotations())
	return next
}

// equalMaps treats nil and empty alike.
func equalMaps(a, b map[string]string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
