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
	"k8s.io/client-go/metadata"
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
	if err := checkOurs(history); err != nil {
		return nil, err
	}
	deployed := lastDeployed(history)
	if deployed == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrNotDeployed)
	}
	return r.absentIn(ctx, deployed.Manifest)
}

// getConcurrency bounds the GETs in flight for one release.
const getConcurrency = 8

// absentIn checks the objects of a release manifest.
func (r *Releaser) absentIn(ctx context.Context, manifest string) ([]Object, error) {
	objects, err := manifestObjects(manifest)
	if err != nil {
		return nil, err
	}
	mapper, err := r.getter.ToRESTMapper()
	if err != nil {
		return nil, err
	}
	missing := make([]bool, len(objects))
	errs := make([]error, len(objects))
	sem := make(chan struct{}, getConcurrency)
	var wg sync.WaitGroup
	for i := range objects {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			missing[i], errs[i] = r.isAbsent(ctx, mapper, &objects[i])
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var absent []Object
	for i, o := range objects {
		if missing[i] {
			absent = append(absent, o)
		}
	}
	return absent, nil
}

// isAbsent GETs the object's metadata, and fills in the namespace of a
// namespaced object that the manifest left to the release's. An object
// whose kind the cluster no longer serves (its CRD is gone) is absent too.
func (r *Releaser) isAbsent(ctx context.Context, mapper meta.RESTMapper, o *Object) (bool, error) {
	gv, err := schema.ParseGroupVersion(o.APIVersion)
	if err != nil {
		return false, fmt.Errorf("%s: %w", o, err)
	}
	mapping, err := mapper.RESTMapping(gv.WithKind(o.Kind).GroupKind(), gv.Version)
	if meta.IsNoMatchError(err) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", o, err)
	}
	var res metadata.ResourceInterface = r.meta.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if o.Namespace == "" {
			o.Namespace = r.namespace
		}
		res = r.meta.Resource(mapping.Resource).Namespace(o.Namespace)
	}
	got, err := res.Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("get %s: %w", o, err)
	}
	return got.DeletionTimestamp != nil, nil
}
