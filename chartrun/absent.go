package chartrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/kube"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Object names one object of a release's manifest.
type Object struct {
	Kind      string
	Namespace string
	Name      string
}

func (o Object) String() string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

// AbsentResources lists the objects of the deployed release that no longer
// exist in the cluster (one GET each).
func (r *Releaser) AbsentResources(ctx context.Context, name string) ([]Object, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	rel, err := cfg.Releases.Deployed(name)
	if err != nil {
		return nil, fmt.Errorf("deployed release %s: %w", name, err)
	}
	return r.absentIn(ctx, cfg, rel.Manifest)
}

func (r *Releaser) absentIn(_ context.Context, cfg *action.Configuration, manifest string) ([]Object, error) {
	if manifest == "" {
		return nil, nil
	}
	resources, err := cfg.KubeClient.Build(bytes.NewBufferString(manifest), false)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return getAll(resources)
}

// getConcurrency bounds the GETs in flight for one release.
const getConcurrency = 8

// getAll GETs every object, a few at a time, and lists the missing ones in
// manifest order.
func getAll(resources kube.ResourceList) ([]Object, error) {
	missing := make([]bool, len(resources))
	errs := make([]error, len(resources))
	sem := make(chan struct{}, getConcurrency)
	var wg sync.WaitGroup
	for i, info := range resources {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			err := info.Get()
			switch {
			case apierrors.IsNotFound(err):
				missing[i] = true
			case err != nil:
				errs[i] = fmt.Errorf("get %s %s: %w", info.Mapping.GroupVersionKind.Kind, info.Name, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var absent []Object
	for i, info := range resources {
		if missing[i] {
			absent = append(absent, Object{Kind: info.Mapping.GroupVersionKind.Kind, Namespace: info.Namespace, Name: info.Name})
		}
	}
	return absent, nil
}
