package chartrun

import (
	"context"
	"errors"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Object names one object of a release's manifest.
type Object struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

func (o Object) String() string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

// AbsentResources lists the objects of the deployed release that no longer
// exist in the cluster, or are being deleted (one GET of metadata each, a
// few at a time).
func (r *Releaser) AbsentResources(ctx context.Context, name string) ([]Object, error) {
	if err := r.checkName(name); err != nil {
		return nil, err
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	history, err := r.history(cfg, name)
	if err != nil {
		return nil, err
	}
	deployed := lastDeployed(history)
	if deployed == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrNotDeployed)
	}
	return r.absentIn(ctx, deployed.Manifest)
}

// absentCheck is an absent check running in the background.
type absentCheck struct {
	stop   context.CancelFunc
	done   chan struct{}
	absent []Object
	err    error
}

// startAbsentCheck checks the objects of rendered manifests, helm's hooks
// left out as a release's manifest leaves them out, in the background; with
// indexed (the release's first run after a start) from the objectIndex.
func (r *Releaser) startAbsentCheck(ctx context.Context, manifests string, indexed bool) *absentCheck {
	ctx, stop := context.WithCancel(ctx)
	c := &absentCheck{stop: stop, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		objects, err := manifestObjects(manifests, withoutHooks)
		if err != nil {
			c.err = err
			return
		}
		c.absent, c.err = r.absentOf(ctx, objects, indexed)
	}()
	return c
}

// result waits for the check.
func (c *absentCheck) result() ([]Object, error) {
	<-c.done
	c.stop()
	return c.absent, c.err
}

// cancel stops the check, whose outcome is not needed, and waits for it;
// a nil check is none.
func (c *absentCheck) cancel() {
	if c == nil {
		return
	}
	c.stop()
	<-c.done
}

// getConcurrency bounds the requests in flight for one release.
const getConcurrency = 8

// kindIn is the objects of one resource in one namespace ("" when cluster
// scoped): one request tells which of them exist.
type kindIn struct {
	resource  schema.GroupVersionResource
	namespace string
}

// absentIn checks the objects of a release manifest with one request per
// kind and namespace rather than per object: the client's QPS is shared
// with everything the operator does (see presentIn).
func (r *Releaser) absentIn(ctx context.Context, manifest string) ([]Object, error) {
	objects, err := manifestObjects(manifest, withHooks)
	if err != nil {
		return nil, err
	}
	return r.absentOf(ctx, objects, false)
}

// absentOf returns the objects that do not exist or are being deleted;
// with indexed, as the objectIndex has them where it can tell.
func (r *Releaser) absentOf(ctx context.Context, objects []Object, indexed bool) ([]Object, error) {
	groups, unserved, err := r.groupByKind(objects)
	if err != nil {
		return nil, err
	}
	present, err := r.presentAll(ctx, groups, indexed)
	if err != nil {
		return nil, err
	}
	var absent []Object
	for i, o := range objects {
		if unserved[i] || !present[o.Namespace+"/"+o.Kind+"/"+o.Name] {
			absent = append(absent, o)
		}
	}
	return absent, nil
}

// groupByKind maps each object to its resource, fills in the namespace of a
// namespaced object that the manifest left to the release's, and marks the
// objects whose kind the cluster no longer serves (its CRD is gone): they
// are absent.
func (r *Releaser) groupByKind(objects []Object) (map[kindIn][]*Object, map[int]bool, error) {
	mapper, err := r.getter.ToRESTMapper()
	if err != nil {
		return nil, nil, err
	}
	groups, unserved := map[kindIn][]*Object{}, map[int]bool{}
	for i := range objects {
		o := &objects[i]
		gv, err := schema.ParseGroupVersion(o.APIVersion)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o, err)
		}
		mapping, err := mapper.RESTMapping(gv.WithKind(o.Kind).GroupKind(), gv.Version)
		if meta.IsNoMatchError(err) {
			unserved[i] = true
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o, err)
		}
		key := kindIn{resource: mapping.Resource}
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			if o.Namespace == "" {
				o.Namespace = r.namespace
			}
			key.namespace = o.Namespace
		}
		groups[key] = append(groups[key], o)
	}
	return groups, unserved, nil
}

// presentAll asks for every kind at once, a few at a time, and returns the
// objects that exist as "namespace/kind/name".
func (r *Releaser) presentAll(ctx context.Context, groups map[kindIn][]*Object, indexed bool) (map[string]bool, error) {
	var (
		mu      sync.Mutex
		present = map[string]bool{}
		errs    []error
		wg      sync.WaitGroup
		sem     = make(chan struct{}, getConcurrency)
	)
	for key, objects := range groups {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			names, ok := map[string]bool(nil), false
			if indexed {
				names, ok = r.objects.present(ctx, key, objects)
			}
			var err error
			if !ok {
				names, err = r.presentIn(ctx, key, objects)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			for _, o := range objects {
				if names[o.Name] {
					present[o.Namespace+"/"+o.Kind+"/"+o.Name] = true
				}
			}
		}()
	}
	wg.Wait()
	return present, errors.Join(errs...)
}

// helmManaged selects what helm applied: it labels every object it creates
// or updates so. An object someone took the label off counts as absent, and
// the upgrade that follows puts the label back.
const helmManaged = "app.kubernetes.io/managed-by=Helm"

// presentIn returns the names of the objects of one kind that exist and are
// not being deleted: a GET of metadata for one object, else a LIST of the
// metadata of helm's objects of that kind.
func (r *Releaser) presentIn(ctx context.Context, key kindIn, objects []*Object) (map[string]bool, error) {
	names := map[string]bool{}
	if len(objects) == 1 {
		got, err := metadataResource(r.meta, key).Get(ctx, objects[0].Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, fmt.Errorf("get %s: %w", objects[0], err)
		case got.DeletionTimestamp == nil:
			names[got.Name] = true
		}
		return names, nil
	}
	present, _, err := metadataLister(r.meta).list(ctx, key, metav1.ListOptions{LabelSelector: helmManaged})
	for name := range present {
		names[name] = true
	}
	return names, err
}
