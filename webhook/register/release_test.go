package register

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestDecideRelease(t *testing.T) {
	crd := func(strategy apiextensionsv1.ConversionStrategyType, storage string, stored ...string) *apiextensionsv1.CustomResourceDefinition {
		c := &apiextensionsv1.CustomResourceDefinition{}
		c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: strategy}
		for _, v := range []string{"v1", "v2"} {
			c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Storage: v == storage})
		}
		c.Status.StoredVersions = stored
		return c
	}
	for _, tc := range []struct {
		name string
		crd  *apiextensionsv1.CustomResourceDefinition
		want ReleaseAction
	}{
		{"no CRD", nil, ReleaseNothing},
		{"already None", crd(apiextensionsv1.NoneConverter, "v1", "v1"), ReleaseNothing},
		{"one stored version, the storage one", crd(apiextensionsv1.WebhookConverter, "v1", "v1"), ReleaseToNone},
		{"two stored versions", crd(apiextensionsv1.WebhookConverter, "v2", "v1", "v2"), ReleaseKeepServing},
		{"one stored version, not the storage one", crd(apiextensionsv1.WebhookConverter, "v2", "v1"), ReleaseKeepServing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DecideRelease(tc.crd)
			if got.Action != tc.want || (got.Action == ReleaseKeepServing) != (got.Reason != "") {
				t.Errorf("DecideRelease = %+v, want %s", got, tc.want)
			}
		})
	}
}
