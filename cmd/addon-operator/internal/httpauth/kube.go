package httpauth

import (
	"context"
	"fmt"

	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// KubeReviewer is the Reviewer of the apiserver: the operator's
// ServiceAccount needs create on tokenreviews (authentication.k8s.io) and
// subjectaccessreviews (authorization.k8s.io).
type KubeReviewer struct {
	Client kubernetes.Interface
}

// ReviewToken creates a TokenReview of token (the apiserver's audiences).
func (k KubeReviewer) ReviewToken(ctx context.Context, token string) (authnv1.UserInfo, bool, error) {
	review := &authnv1.TokenReview{Spec: authnv1.TokenReviewSpec{Token: token}}
	got, err := k.Client.AuthenticationV1().TokenReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return authnv1.UserInfo{}, false, fmt.Errorf("create a TokenReview (authentication.k8s.io/v1): %w", err)
	}
	return got.Status.User, got.Status.Authenticated, nil
}

// MayGet creates a SubjectAccessReview of user for verb get on path.
func (k KubeReviewer) MayGet(ctx context.Context, user authnv1.UserInfo, path string) (bool, error) {
	extra := make(map[string]authzv1.ExtraValue, len(user.Extra))
	for name, v := range user.Extra {
		extra[name] = authzv1.ExtraValue(v)
	}
	review := &authzv1.SubjectAccessReview{Spec: authzv1.SubjectAccessReviewSpec{
		User: user.Username, UID: user.UID, Groups: user.Groups, Extra: extra,
		NonResourceAttributes: &authzv1.NonResourceAttributes{Path: path, Verb: "get"}}}
	got, err := k.Client.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return false, fmt.Errorf("create a SubjectAccessReview (authorization.k8s.io/v1) of %s for get %s: %w", user.Username, path, err)
	}
	return got.Status.Allowed && !got.Status.Denied, nil
}
