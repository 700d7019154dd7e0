package webhook

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// Group is the objects of one conversion request sharing a source
// apiVersion, by their index in request.objects, and the steps that take
// them to the desired version (none when they are there already).
type Group struct {
	From    string
	Indexes []int
	Steps   []Step
}

// PlanConversion groups a request's objects by apiVersion, in the order
// they first appear, and finds each group's chain. No chain for some
// group fails the whole request as shell-operator does.
func PlanConversion(crdName string, bindings []Conversion, objects []runtime.RawExtension, desired string) ([]Group, error) {
	var groups []Group
	byVersion := map[string]int{}
	for i, obj := range objects {
		v, err := apiVersionOf(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d: %w", i, err)
		}
		g, seen := byVersion[v]
		if !seen {
			steps, ok := Chain(bindings, v, desired)
			if !ok {
				return nil, fmt.Errorf("Conversion %s to %s was not successful", crdName, desired) //nolint:staticcheck // shell-operator's words
			}
			g = len(groups)
			byVersion[v] = g
			groups = append(groups, Group{From: v, Steps: steps})
		}
		groups[g].Indexes = append(groups[g].Indexes, i)
	}
	return groups, nil
}

func apiVersionOf(obj runtime.RawExtension) (string, error) {
	var meta struct {
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal(obj.Raw, &meta); err != nil {
		return "", fmt.Errorf("read apiVersion: %w", err)
	}
	if meta.APIVersion == "" {
		return "", fmt.Errorf("no apiVersion")
	}
	return meta.APIVersion, nil
}
