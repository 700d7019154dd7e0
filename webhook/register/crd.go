package register

import (
	"context"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/addon-actors/addon-operator/forbidden"
)

// conversionReviewVersions are shell-operator's.
func conversionReviewVersions() []string { return []string{"v1", "v1beta1"} }

// WebhookConversion is the spec.conversion that sends the CRD's
// conversions to cc.
func WebhookConversion(cc apiextensionsv1.WebhookClientConfig) *apiextensionsv1.CustomResourceConversion {
	return &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter,
		Webhook: &apiextensionsv1.WebhookConversion{ClientConfig: cc.DeepCopy(), ConversionReviewVersions: conversionReviewVersions()}}
}

// ApplyConversion sets the CRD's conversion to the webhook at cc (see
// Endpoint.Conversion), writing only when it differs. The CRD must exist.
func (r *Registrar) ApplyConversion(ctx context.Context, crdName string, cc apiextensionsv1.WebhookClientConfig) error {
	want := WebhookConversion(cc)
	err := r.updateCRD(ctx, crdName, func(crd *apiextensionsv1.CustomResourceDefinition) bool {
		if equality.Semantic.DeepEqual(crd.Spec.Conversion, want) {
			return false
		}
		crd.Spec.Conversion = want
		return true
	})
	if err != nil {
		return fmt.Errorf("set conversion webhook of CRD %s: %w", crdName, err)
	}
	return nil
}

// ReleaseConversion puts the CRD's conversion back to None when
// DecideRelease allows it, and reports the decision (the caller logs a
// KeepServing with its Reason and keeps serving the conversion); a missing CRD has
// nothing to release.
func (r *Registrar) ReleaseConversion(ctx context.Context, crdName string) (Release, error) {
	var decision Release
	err := r.updateCRD(ctx, crdName, func(crd *apiextensionsv1.CustomResourceDefinition) bool {
		decision = DecideRelease(crd)
		if decision.Action != ReleaseToNone {
			return false
		}
		crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
		return true
	})
	if apierrors.IsNotFound(err) {
		return Release{Action: ReleaseNothing}, nil
	}
	if err != nil {
		return decision, fmt.Errorf("release conversion webhook of CRD %s: %w", crdName, err)
	}
	return decision, nil
}

// updateCRD reads the CRD, lets change edit it and updates it when change
// says it did, retrying on conflicts.
func (r *Registrar) updateCRD(ctx context.Context, name string, change func(*apiextensionsv1.CustomResourceDefinition) bool) error {
	client := r.crds.ApiextensionsV1().CustomResourceDefinitions()
	return forbidden.Explain(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		crd, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !change(crd) {
			return nil
		}
		_, err = client.Update(ctx, crd, metav1.UpdateOptions{})
		return err
	}))
}
