package config

import (
	"context"
	"errors"
	"fmt"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"github.com/addon-actors/addon-operator/forbidden"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// Store reads and writes the one ConfigMap.
type Store struct {
	client    kubernetes.Interface
	namespace string
	name      string
	backoff   wait.Backoff
	watch     kubewatch.Options // see WatchHealth
}

// NewStore returns a Store for namespace/name.
func NewStore(client kubernetes.Interface, namespace, name string) *Store {
	return &Store{client: client, namespace: namespace, name: name, backoff: conflictBackoff()}
}

// conflictBackoff is generous: a config patch must land even when a person
// or another tool keeps editing the ConfigMap at the same moment.
func conflictBackoff() wait.Backoff {
	return wait.Backoff{Steps: 30, Duration: 5 * time.Millisecond, Factor: 1.5, Jitter: 0.5, Cap: time.Second}
}

// ApplyPatch applies a hook's config patch to the ConfigMap's current data
// and writes it back on that data's resourceVersion, starting over from a
// fresh read when someone else wrote in between, so a concurrent edit is
// never lost. An absent ConfigMap is created. It reports whether the data
// changed (a patch that changes nothing writes nothing).
func (s *Store) ApplyPatch(ctx context.Context, p jsonpatch.Patch) (changed bool, err error) {
	w, err := s.ApplyPatchOver(ctx, p, nil)
	return w.Changed, err
}

// Written is what a config patch wrote: nothing (Changed false), or the
// ConfigMap's data and the resourceVersion the apiserver gave the write, by
// which the watch's report of this very write is recognised.
type Written struct {
	Changed         bool
	ResourceVersion string
	Data            map[string]string
}

// ApplyPatchOver is ApplyPatch that, when the ConfigMap does not exist,
// creates it from absent with the patch applied (absent nil: from empty
// data), and returns what it wrote.
func (s *Store) ApplyPatchOver(ctx context.Context, p jsonpatch.Patch, absent map[string]string) (Written, error) {
	var written Written
	err := retry.OnError(s.backoff, retriable, func() error {
		written = Written{}
		current, err := s.get(ctx)
		if err != nil {
			return err
		}
		data := absent
		if current != nil {
			data = current.Data
		}
		next, diff, err := configmap.ApplyPatch(data, p)
		if err != nil || !diff {
			return err
		}
		cm, err := s.write(ctx, current, next)
		if err != nil {
			return err
		}
		written = Written{Changed: true, ResourceVersion: cm.ResourceVersion, Data: cm.Data}
		return nil
	})
	if err != nil {
		return Written{}, forbidden.Explain(fmt.Errorf("write config patch to ConfigMap %s/%s: %w", s.namespace, s.name, err))
	}
	return written, nil
}

// retriable is a lost race: an update on a stale resourceVersion, or a create
// that someone else's create beat.
func retriable(err error) bool {
	return apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err)
}

func (s *Store) get(ctx context.Context) (*corev1.ConfigMap, error) {
	cm, err := s.client.CoreV1().ConfigMaps(s.namespace).Get(ctx, s.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	return cm, nil
}

// write creates or updates the ConfigMap and returns it as written.
func (s *Store) write(ctx context.Context, current *corev1.ConfigMap, data map[string]string) (*corev1.ConfigMap, error) {
	cms := s.client.CoreV1().ConfigMaps(s.namespace)
	if current == nil {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: s.name, Namespace: s.namespace}, Data: data}
		return cms.Create(ctx, cm, metav1.CreateOptions{})
	}
	updated := current.DeepCopy()
	updated.Data = data
	return cms.Update(ctx, updated, metav1.UpdateOptions{})
}

// Read returns the ConfigMap's data and whether it exists.
func (s *Store) Read(ctx context.Context) (Snapshot, error) {
	cm, err := s.get(ctx)
	if err != nil {
		return Snapshot{}, fmt.Errorf("read ConfigMap %s/%s: %w", s.namespace, s.name, err)
	}
	return snapshotOf(cm), nil
}

// ErrWatchNotSynced is returned when the ConfigMap informer cannot list it.
var ErrWatchNotSynced = errors.New("ConfigMap watch did not sync")
