package config

import (
	"context"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// SecretSource reports one Secret of the operator's namespace: once its
// first list is done (absent included), then after each change, until ctx
// is done (Secrets.Watch).
type SecretSource interface {
	Watch(ctx context.Context, name string, onChange func(data map[string][]byte, exists bool)) error
}

// Secrets are the Secrets of the operator's namespace that ModuleConfigs'
// spec.settingsFrom name: one informer per name, narrowed by a field
// selector on metadata.name, so that the operator lists and holds only the
// Secrets it was asked for (never helm's release Secrets of the same
// namespace, which may be many and large).
type Secrets struct {
	Client    kubernetes.Interface
	Namespace string
	// Health is what the watch reports its drops and resumes to.
	Health kubewatch.Options
}

// Watch implements SecretSource.
func (s Secrets) Watch(ctx context.Context, name string, onChange func(map[string][]byte, bool)) error {
	report := func(obj any) {
		if sec, ok := obj.(*corev1.Secret); ok {
			onChange(sec.Data, true)
			return
		}
		onChange(nil, false)
	}
	h := kubewatch.Handler{Add: report, Update: func(_, obj any) { report(obj) }, Delete: func(any) { report(nil) }}
	informer := kubewatch.NewInformer(s.listWatch(ctx, name), &corev1.Secret{}, "Secret "+s.Namespace+"/"+name, dropSecretMeta, h)
	stopped, synced := runInformer(ctx, informer)
	if synced {
		if _, exists := informer.Get(s.Namespace + "/" + name); !exists {
			onChange(nil, false)
		}
	}
	<-stopped
	if !synced {
		return fmt.Errorf("%w: Secret %s/%s: %v", ErrWatchNotSynced, s.Namespace, name, ctx.Err())
	}
	return nil
}

// dropSecretMeta keeps only what is read of a Secret: its name and data.
func dropSecretMeta(obj any) (any, error) {
	sec, ok := obj.(*corev1.Secret)
	if !ok {
		return obj, nil
	}
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: sec.Name, Namespace: sec.Namespace,
		ResourceVersion: sec.ResourceVersion}, Data: sec.Data}, nil
}

func (s Secrets) listWatch(ctx context.Context, name string) *cache.ListWatch {
	opts := s.Health
	opts.What = []any{"watch", "Secret", "namespace", s.Namespace, "name", name}
	secrets := s.Client.CoreV1().Secrets(s.Namespace)
	return oneByName(ctx, opts, name,
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return secrets.List(ctx, o) }, secrets.Watch)
}

// secretReport carries one Secret's state into the actor's mailbox.
type secretReport struct {
	Name   string
	Data   map[string][]byte
	Exists bool
}

// secretWatch is one watched Secret: its state once read, and how to stop
// its watch.
type secretWatch struct {
	read   bool
	exists bool
	data   map[string][]byte
	stop   context.CancelFunc
}

// watchSecrets starts a watch for each Secret the objects name and not yet
// watched, and stops those no object names any more.
func (a *Actor) watchSecrets(ctx actor.Context) {
	src := a.opts.ModuleConfigs.Secrets
	if src == nil || a.objects.watchCtx == nil {
		return
	}
	wanted := secretNames(a.objects.list, a.targetsNow())
	for name, w := range a.objects.secrets {
		if !slices.Contains(wanted, name) {
			w.stop()
			delete(a.objects.secrets, name)
		}
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	for _, name := range wanted {
		if _, ok := a.objects.secrets[name]; ok {
			continue
		}
		wctx, stop := context.WithCancel(a.objects.watchCtx)
		a.objects.secrets[name] = &secretWatch{stop: stop}
		a.running.Add(1)
		go func() {
			defer a.running.Done()
			err := src.Watch(wctx, name, func(data map[string][]byte, exists bool) {
				root.Send(self, secretReport{Name: name, Data: maps.Clone(data), Exists: exists})
			})
			if err != nil && wctx.Err() == nil {
				a.opts.Log.Error("Secret watch stopped", "secret", name, "err", err)
			}
		}()
	}
}

// Reader reads each value with a GET of its Secret, under ctx: for a
// one-off check such as plan, where no watch runs.
func (s Secrets) Reader(ctx context.Context) moduleconfig.SecretValues {
	return secretGetter{s: s, ctx: ctx}
}

type secretGetter struct {
	s   Secrets
	ctx context.Context
}

// SecretValue implements moduleconfig.SecretValues: a Secret that is not
// found is ErrSecretMissing; one that cannot be read (no permission, no
// apiserver) is ErrSecretUnknown.
func (g secretGetter) SecretValue(ref moduleconfig.SecretKeyRef) (string, error) {
	sec, err := g.s.Client.CoreV1().Secrets(g.s.Namespace).Get(g.ctx, ref.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return "", fmt.Errorf("%w: no such Secret in namespace %s", moduleconfig.ErrSecretMissing, g.s.Namespace)
	case err != nil:
		return "", fmt.Errorf("%w: %v", moduleconfig.ErrSecretUnknown, err)
	}
	v, ok := sec.Data[ref.Key]
	if !ok {
		return "", fmt.Errorf("%w: the Secret has no key %q", moduleconfig.ErrSecretMissing, ref.Key)
	}
	return string(v), nil
}
