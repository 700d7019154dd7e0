package objectpatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/forbidden"
)

// DefaultDeleteTimeout is how long Delete waits for the object to be gone
// (UPSTREAM.md §1.9).
const DefaultDeleteTimeout = 20 * time.Second

// Outcomes passed to Options.Observe.
const (
	OutcomeApplied = "applied"
	OutcomeFailed  = "failed"
)

// Options configure an Applier.
type Options struct {
	// Client and Mapper reach the cluster; the caller gives the client its
	// own QPS and burst (OBJECT_PATCHER_KUBE_CLIENT_*).
	Client dynamic.Interface
	Mapper meta.RESTMapper
	// DeleteTimeout bounds Delete's wait for the object to be gone; 0 is
	// DefaultDeleteTimeout.
	DeleteTimeout time.Duration
	// Observe, when set, is told the outcome of each operation.
	Observe func(owner string, op Kind, outcome string)
	// Log gets one debug record per operation; nil discards.
	Log *slog.Logger
}

// Applier applies operations to the cluster. It is safe for concurrent use.
type Applier struct{ opts Options }

// NewApplier returns an Applier with opts, defaults filled in.
func NewApplier(opts Options) *Applier {
	if opts.DeleteTimeout <= 0 {
		opts.DeleteTimeout = DefaultDeleteTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Observe == nil {
		opts.Observe = func(string, Kind, string) {}
	}
	return &Applier{opts: opts}
}

// Apply applies ops in order for owner (a module name or "global"). Every
// operation is attempted; the errors, each naming its item, are joined.
func (a *Applier) Apply(ctx context.Context, owner string, ops []Operation) error {
	var errs []error
	for _, op := range ops {
		err := a.apply(ctx, op)
		outcome := OutcomeApplied
		if err != nil {
			outcome = OutcomeFailed
			errs = append(errs, forbidden.Explain(fmt.Errorf("%s: %w", op.Describe(), err)))
		}
		a.opts.Observe(owner, op.Op, outcome)
		a.opts.Log.Debug("object patch", "owner", owner, "item", op.Index, "operation", string(op.Op),
			"object", op.Target(), "outcome", outcome)
	}
	return errors.Join(errs...)
}

func (a *Applier) apply(ctx context.Context, op Operation) error {
	res, err := a.resource(op)
	if err != nil {
		return err
	}
	switch op.Op {
	case Create, CreateIfNotExists, CreateOrUpdate:
		return create(ctx, res, op)
	case Delete, DeleteInBackground, DeleteNonCascading:
		return a.remove(ctx, res, op)
	case JQPatch:
		return jqPatch(ctx, res, op)
	case MergePatch, JSONPatch:
		return patch(ctx, res, op)
	}
	return fmt.Errorf("unknown operation %q", op.Op)
}

// resource is the client of the operation's kind, in its namespace when
// the kind is namespaced.
func (a *Applier) resource(op Operation) (dynamic.ResourceInterface, error) {
	mapping, err := a.mapping(op.APIVersion, op.ObjKind)
	if err != nil {
		return nil, err
	}
	res := a.opts.Client.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		return res.Namespace(op.Namespace), nil
	}
	return res, nil
}

// mapping finds the resource of apiVersion and kind; without apiVersion,
// the kind in any group the apiserver serves.
func (a *Applier) mapping(apiVersion, kind string) (*meta.RESTMapping, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	if apiVersion != "" {
		m, err := a.opts.Mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: kind}, gv.Version)
		if err != nil {
			return nil, fmt.Errorf("kind %s of apiVersion %s is not served by the apiserver: %w", kind, apiVersion, err)
		}
		return m, nil
	}
	gvk, err := a.opts.Mapper.KindFor(schema.GroupVersionResource{Resource: strings.ToLower(kind)})
	if err == nil {
		return a.opts.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	return nil, fmt.Errorf("kind %s is not served by the apiserver: %w", kind, err)
}

// conflictBackoff paces the retries of a read-modify-update that lost to a
// concurrent writer: more and longer steps than client-go's DefaultRetry
// (5 × 10 ms), as hooks of several owners may update one object at once.
var conflictBackoff = wait.Backoff{Steps: 10, Duration: 10 * time.Millisecond, Factor: 1.5, Jitter: 0.5}
