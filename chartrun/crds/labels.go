package crds

import (
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
)

// DefaultExtraLabels is ADDON_OPERATOR_CRD_EXTRA_LABELS's default.
const DefaultExtraLabels = "heritage=addon-operator"

// ParseExtraLabels reads ADDON_OPERATOR_CRD_EXTRA_LABELS (matchLabels
// syntax, "a=b,c=d"); heritage=addon-operator is added when it has no
// heritage key.
func ParseExtraLabels(setting string) (map[string]string, error) {
	set, err := labels.ConvertSelectorToLabelsMap(setting)
	if err != nil {
		return nil, fmt.Errorf("CRD extra labels %q: %w", setting, err)
	}
	out := map[string]string(set)
	if _, ok := out["heritage"]; !ok {
		out["heritage"] = "addon-operator"
	}
	return out, nil
}
