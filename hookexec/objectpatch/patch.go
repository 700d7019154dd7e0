package objectpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// subresources is the optional subresource argument of the client calls.
func subresources(op Operation) []string {
	if op.Subresource == "" {
		return nil
	}
	return []string{op.Subresource}
}

// missing says whether err is a NotFound that the operation ignores.
func missing(op Operation, err error) bool {
	return op.IgnoreMissingObject && apierrors.IsNotFound(err)
}

// patch sends a merge or JSON patch.
func patch(ctx context.Context, res dynamic.ResourceInterface, op Operation) error {
	kind, data := types.MergePatchType, op.MergePatch
	if op.Op == JSONPatch {
		kind, data = types.JSONPatchType, op.JSONPatch
	}
	_, err := res.Patch(ctx, op.Name, kind, data, metav1.PatchOptions{}, subresources(op)...)
	if err != nil && !missing(op, err) {
		return fmt.Errorf("patch: %w", err)
	}
	return nil
}

// jqPatch reads the object, applies the filter and updates the object (or
// its subresource) when the filter changed it; retried on conflict.
func jqPatch(ctx context.Context, res dynamic.ResourceInterface, op Operation) error {
	code, err := compileJQ(op.JQFilter)
	if err != nil {
		return fmt.Errorf("jqFilter: %w", err)
	}
	return retry.RetryOnConflict(conflictBackoff, func() error {
		current, err := res.Get(ctx, op.Name, metav1.GetOptions{}, subresources(op)...)
		if missing(op, err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("get: %w", err)
		}
		before, err := plain(current.Object)
		if err != nil {
			return err
		}
		after, err := runJQ(code, before)
		if err != nil || reflect.DeepEqual(before, after) {
			return err
		}
		_, err = res.Update(ctx, &unstructured.Unstructured{Object: after}, metav1.UpdateOptions{}, subresources(op)...)
		if err != nil && !missing(op, err) {
			return fmt.Errorf("update: %w", err)
		}
		return nil
	})
}

// plain is obj with JSON's types only (float64 numbers), which jq needs;
// the client's int64 are not among them.
func plain(obj map[string]any) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode object: %w", err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode object: %w", err)
	}
	return out, nil
}
