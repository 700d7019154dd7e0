package objectpatch

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// create creates op.Object; on AlreadyExists, Create fails,
// CreateIfNotExists is done, and CreateOrUpdate updates the object over the
// current resourceVersion, retried on conflict.
func create(ctx context.Context, res dynamic.ResourceInterface, op Operation) error {
	obj := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(op.Object)}
	_, err := res.Create(ctx, obj, metav1.CreateOptions{})
	switch {
	case err == nil:
		return nil
	case !apierrors.IsAlreadyExists(err):
		return fmt.Errorf("create: %w", err)
	case op.Op == CreateIfNotExists:
		return nil
	case op.Op == Create:
		return fmt.Errorf("create: %w", err)
	}
	return retry.RetryOnConflict(conflictBackoff, func() error {
		current, err := res.Get(ctx, op.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("get for update: %w", err)
		}
		obj.SetResourceVersion(current.GetResourceVersion())
		if _, err := res.Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update: %w", err)
		}
		return nil
	})
}
