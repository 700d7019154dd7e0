package objectpatch

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// propagation of each delete operation.
var propagation = map[Kind]metav1.DeletionPropagation{
	Delete:             metav1.DeletePropagationForeground,
	DeleteInBackground: metav1.DeletePropagationBackground,
	DeleteNonCascading: metav1.DeletePropagationOrphan,
}

// remove deletes the object (NotFound is done); Delete then waits until it
// is gone, at most DeleteTimeout.
func (a *Applier) remove(ctx context.Context, res dynamic.ResourceInterface, op Operation) error {
	policy := propagation[op.Op]
	err := res.Delete(ctx, op.Name, metav1.DeleteOptions{PropagationPolicy: &policy})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if op.Op != Delete {
		return nil
	}
	wait, cancel := context.WithTimeout(ctx, a.opts.DeleteTimeout)
	defer cancel()
	if err := waitGone(wait, res, op.Name); err != nil {
		return fmt.Errorf("delete: wait until gone (%s): %w", a.opts.DeleteTimeout, err)
	}
	return nil
}

// waitGone returns when the object is gone: a GET finds none, or a watch
// from that GET reports its deletion. A watch that ends early is started
// again from a fresh GET.
func waitGone(ctx context.Context, res dynamic.ResourceInterface, name string) error {
	for {
		current, err := res.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return stillThere(ctx, err, nil)
		}
		w, err := res.Watch(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(),
			ResourceVersion: current.GetResourceVersion()})
		if err != nil {
			return stillThere(ctx, err, current.GetFinalizers())
		}
		deleted, err := untilDeleted(ctx, w)
		if deleted || err != nil {
			return stillThere(ctx, err, current.GetFinalizers())
		}
	}
}

// untilDeleted reads w until a Deleted event (true), its end (false) or
// ctx's end (the error).
func untilDeleted(ctx context.Context, w watch.Interface) (bool, error) {
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case ev, ok := <-w.ResultChan():
			if !ok {
				return false, nil
			}
			if ev.Type == watch.Deleted {
				return true, nil
			}
		}
	}
}

// stillThere words a failed wait: the object with its finalizers when the
// time ran out.
func stillThere(ctx context.Context, err error, finalizers []string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return fmt.Errorf("the object is still there (finalizers %v): %w", finalizers, err)
	}
	return err
}
