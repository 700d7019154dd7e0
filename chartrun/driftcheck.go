package chartrun

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

// ObjectDrift is one object of a release that does not hold what the
// release's manifest sets.
type ObjectDrift struct {
	Object Object
	Fields []drift.Field
}

// Check is what a check of a deployed release found.
type Check struct {
	// Absent are the objects that are gone or being deleted.
	Absent []Object
	// Drift are the objects that exist and differ from the manifest (only
	// when asked for).
	Drift []ObjectDrift
}

// Check looks at the objects of the deployed release: which are gone and,
// with withDrift, which do not hold what the manifest sets (helm's hooks
// are never part of a release's manifest). Without drift it is
// AbsentResources.
func (r *Releaser) Check(ctx context.Context, name string, withDrift bool) (Check, error) {
	if !withDrift {
		absent, err := r.AbsentResources(ctx, name)
		return Check{Absent: absent}, err
	}
	if err := r.checkName(name); err != nil {
		return Check{}, err
	}
	cfg, err := r.config()
	if err != nil {
		return Check{}, err
	}
	history, err := r.history(cfg, name)
	if err != nil {
		return Check{}, err
	}
	deployed := lastDeployed(history)
	if deployed == nil {
		return Check{}, fmt.Errorf("%s: %w", name, ErrNotDeployed)
	}
	docs, err := manifestDocs(deployed.Manifest, withoutHooks, true)
	if err != nil {
		return Check{}, err
	}
	return r.inspect(ctx, docs)
}

// driftOfRendered is the drift of a release whose deployed revision was
// made from manifests (a run that skips helm).
func (r *Releaser) driftOfRendered(ctx context.Context, manifests string) ([]ObjectDrift, error) {
	docs, err := manifestDocs(manifests, withoutHooks, true)
	if err != nil {
		return nil, err
	}
	c, err := r.inspect(ctx, docs)
	return c.Drift, err
}

// inspect compares each object with its live state from the live index (a
// list of the kind when the index cannot tell). What the index says is gone
// or drifted is confirmed against the cluster before it counts: its watch
// may lag behind a write that just happened.
func (r *Releaser) inspect(ctx context.Context, docs []manifestDoc) (Check, error) {
	objects := make([]Object, len(docs))
	for i, d := range docs {
		objects[i] = d.Object
	}
	groups, unserved, err := r.groupByKind(objects)
	if err != nil {
		return Check{}, err
	}
	var c Check
	var errs []error
	for key, group := range groups {
		live, ok := r.live.get(ctx, key, group)
		if !ok {
			live, err = r.listLive(ctx, key)
			if err != nil {
				errs = append(errs, err)
				continue
			}
		}
		for _, o := range group {
			body := docs[indexOf(objects, o)].body
			absent, d, err := r.compare(ctx, key, *o, body, live[o.Name])
			errs = append(errs, err)
			if absent {
				c.Absent = append(c.Absent, *o)
			} else if d != nil {
				c.Drift = append(c.Drift, *d)
			}
		}
	}
	for i := range objects {
		if unserved[i] {
			c.Absent = append(c.Absent, objects[i])
		}
	}
	return c, errors.Join(errs...)
}

// indexOf is the position of o (a pointer into objects) in objects.
func indexOf(objects []Object, o *Object) int {
	for i := range objects {
		if &objects[i] == o {
			return i
		}
	}
	return -1
}

// compare judges one object from its indexed live state, asking the
// cluster when that state says gone or drifted.
func (r *Releaser) compare(ctx context.Context, key kindIn, o Object, rendered, indexed map[string]any) (bool, *ObjectDrift, error) {
	if indexed != nil && len(drift.Compare(rendered, indexed, nil)) == 0 {
		return false, nil, nil
	}
	got, err := objectResource(r.dyn, key).Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return true, nil, nil
	case err != nil:
		return false, nil, fmt.Errorf("get %s: %w", o, err)
	case got.GetDeletionTimestamp() != nil:
		return true, nil, nil
	}
	fields := drift.Compare(rendered, got.Object, nil)
	if len(fields) == 0 {
		return false, nil, nil
	}
	return false, &ObjectDrift{Object: o, Fields: fields}, nil
}

// listLive lists the whole objects of one kind that helm labelled.
func (r *Releaser) listLive(ctx context.Context, key kindIn) (map[string]map[string]any, error) {
	live, _, err := objectLister(r.dyn).list(ctx, key, metav1.ListOptions{LabelSelector: helmManaged})
	return live, err
}

// Restore puts back what the manifest sets in the given fields of each
// object, and nothing else: a JSON patch per object that first tests each
// field's live value, so that a change made since the check fails the patch
// instead of being overwritten. It returns the objects restored and an
// error naming each that was not.
func (r *Releaser) Restore(ctx context.Context, drifts []ObjectDrift) ([]Object, error) {
	objects := make([]Object, len(drifts))
	for i, d := range drifts {
		objects[i] = d.Object
	}
	groups, unserved, err := r.groupByKind(objects)
	if err != nil {
		return nil, err
	}
	var done []Object
	var errs []error
	for i := range objects {
		if unserved[i] {
			errs = append(errs, fmt.Errorf("restore %s: its kind is not served", objects[i]))
		}
	}
	for key, group := range groups {
		for _, o := range group {
			patch, err := drift.Patch(drifts[indexOf(objects, o)].Fields)
			if err == nil {
				_, err = objectResource(r.dyn, key).Patch(ctx, o.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("restore %s: %w", o, err))
				continue
			}
			done = append(done, *o)
		}
	}
	return done, errors.Join(errs...)
}
