package kubewatch

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Transient tells a failure that passes by itself (the apiserver is away,
// restarting or overloaded) from one that needs someone to act (a refusal,
// a bad request) or that the reflector handles (a gone resource version).
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return true // no answer: refused, reset, timed out, EOF
	}
	code := status.Status().Code
	return code == 429 || code >= 500
}
