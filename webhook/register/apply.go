package register

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/addon-actors/addon-operator/forbidden"
)

// objectClient is the part of a typed client apply uses.
type objectClient[T metav1.Object] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// apply makes object name be want: created when missing, deleted when
// want is nil, updated when merge (which copies want's fields into the
// object read, keeping the rest of its metadata) says it changed it, and
// not written otherwise.
func apply[T interface {
	comparable
	metav1.Object
}](ctx context.Context, c objectClient[T], name string, want T, merge func(have, want T) bool) error {
	var zero T
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		have, err := c.Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err) && want == zero:
			return nil
		case apierrors.IsNotFound(err):
			_, err = c.Create(ctx, want, metav1.CreateOptions{})
			return wrap("create", err)
		case err != nil:
			return fmt.Errorf("get: %w", err)
		case want == zero:
			err = c.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr(have.GetUID())}})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return wrap("delete", err)
		case !merge(have, want):
			return nil
		}
		_, err = c.Update(ctx, have, metav1.UpdateOptions{})
		return wrap("update", err)
	})
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return forbidden.Explain(fmt.Errorf("%s: %w", op, err))
}

func ptr[T any](v T) *T { return &v }
