package chartrun

import (
	"bytes"
	"context"
	"fmt"

	"helm.sh/helm/v3/pkg/action"
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
	var absent []Object
	for _, info := range resources {
		err := info.Get()
		if apierrors.IsNotFound(err) {
			absent = append(absent, Object{Kind: info.Mapping.GroupVersionKind.Kind, Namespace: info.Namespace, Name: info.Name})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("get %s %s: %w", info.Mapping.GroupVersionKind.Kind, info.Name, err)
		}
	}
	return absent, nil
}
