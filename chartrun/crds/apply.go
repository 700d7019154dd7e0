package crds

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"github.com/addon-actors/addon-operator/forbidden"
)

// Resource is the CRDs' resource.
var Resource = schema.GroupVersionResource{Group: GVK.Group, Version: GVK.Version, Resource: "customresourcedefinitions"}

// DefaultWait bounds the wait for a CRD to be Established and served.
const DefaultWait = time.Minute

// Outcome is what Apply did to one CRD.
type Outcome string

// The outcomes of one CRD.
const (
	Created   Outcome = "created"
	Updated   Outcome = "updated"
	Unchanged Outcome = "unchanged"
)

// Resetter forgets what a RESTMapper discovered
// (meta.ResettableRESTMapper).
type Resetter interface{ Reset() }

// Installer applies CRDs.
type Installer struct {
	Client    dynamic.Interface
	Discovery discovery.DiscoveryInterface
	// Labels are set on every CRD, over its own (ParseExtraLabels).
	Labels map[string]string
	// Mapper, when set, is reset once new kinds are served, so that the
	// kubernetes bindings' kinds resolve.
	Mapper Resetter
	// Wait bounds the wait for each CRD to be Established and its kinds
	// served (0: DefaultWait).
	Wait time.Duration
	Log  *slog.Logger
}

// Apply applies the module's CRDs and waits until they are served; the
// errors of all of them are joined, each naming its file and document.
func (in *Installer) Apply(ctx context.Context, module string, crds []CRD) error {
	var errs []error
	for _, c := range crds {
		out, err := in.applyOne(ctx, c)
		if err != nil {
			errs = append(errs, forbidden.Explain(fmt.Errorf("apply CRD %s from %s: %w", c.Name(), c.Source, err)))
			continue
		}
		in.logger().Info("CRD applied", "module", module, "crd", c.Name(), "outcome", string(out))
	}
	for _, c := range crds {
		if err := in.waitServed(ctx, c.Object); err != nil {
			errs = append(errs, fmt.Errorf("CRD %s from %s: %w", c.Name(), c.Source, err))
		}
	}
	if in.Mapper != nil && len(crds) > 0 {
		in.Mapper.Reset()
	}
	return errors.Join(errs...)
}

func (in *Installer) logger() *slog.Logger {
	if in.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return in.Log
}

// applyOne creates or updates one CRD, again on a conflict.
func (in *Installer) applyOne(ctx context.Context, c CRD) (Outcome, error) {
	var out Outcome
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var err error
		out, err = in.put(ctx, withLabels(c.Object, in.Labels))
		if apierrors.IsAlreadyExists(err) { // created meanwhile: update it
			return apierrors.NewConflict(Resource.GroupResource(), c.Name(), err)
		}
		return err
	})
	return out, err
}

func (in *Installer) put(ctx context.Context, desired *unstructured.Unstructured) (Outcome, error) {
	res := in.Client.Resource(Resource)
	cur, err := res.Get(ctx, desired.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		if _, err := res.Create(ctx, desired, metav1.CreateOptions{}); err != nil {
			return "", fmt.Errorf("create: %w", err)
		}
		return Created, nil
	}
	if err != nil {
		return "", fmt.Errorf("get: %w", err)
	}
	if stored, changed := prunedStoredVersions(cur, desired); changed {
		if err := unstructured.SetNestedStringSlice(cur.Object, stored, "status", "storedVersions"); err != nil {
			return "", fmt.Errorf("status.storedVersions: %w", err)
		}
		if cur, err = res.UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err != nil {
			return "", fmt.Errorf("prune status.storedVersions: %w", err)
		}
	}
	next := updated(cur, desired)
	if next == nil {
		return Unchanged, nil
	}
	if _, err := res.Update(ctx, next, metav1.UpdateOptions{}); err != nil {
		return "", fmt.Errorf("update: %w", err)
	}
	return Updated, nil
}
