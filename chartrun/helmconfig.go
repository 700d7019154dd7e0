package chartrun

import (
	"fmt"
	"io"
	"sync"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/kube"
	"helm.sh/helm/v3/pkg/storage"
	"k8s.io/client-go/kubernetes"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// helmFactory is kubectl's factory for the operator's getter, made on the
// first action of a releaser; it holds nothing a run changes.
type helmFactory struct {
	once    sync.Once
	factory kube.Factory
}

// runFactory is the shared factory with one run's clientset: helm's
// Configuration.Init makes a clientset for its release storage and its kube
// client another (both with the operator's QPS and burst), alike; one does.
// Each action keeps a clientset, and so a rate limiter, of its own, as
// with helm's own set-up.
type runFactory struct {
	kube.Factory
	clientset *kubernetes.Clientset
}

func (f *runFactory) KubernetesClientSet() (*kubernetes.Clientset, error) { return f.clientset, nil }

// reachable is helm's kube client without its reachability probe: helm asks
// the server version before every install, upgrade and uninstall (a
// request each), only to fail early with "Kubernetes cluster unreachable".
// An unreachable cluster fails the action's first request instead, with
// the address it could not reach.
type reachable struct{ *kube.Client }

func (reachable) IsReachable() error { return nil }

// config builds a helm configuration for one action: helm's actions write
// to it, so concurrent runs for different modules must not share one.
func (r *Releaser) config() (*action.Configuration, error) {
	r.factory.once.Do(func() { r.factory.factory = cmdutil.NewFactory(r.getter) })
	config, err := r.getter.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, fmt.Errorf("helm configuration: clientset: %w", err)
	}
	logf := func(format string, v ...any) { r.opts.Log.Debug(fmt.Sprintf(format, v...)) }
	secrets := newReleaseSecrets(clientset.CoreV1().Secrets(r.namespace), &r.gzips, r.opts.Clock.Now)
	secrets.Log = logf
	return &action.Configuration{
		RESTClientGetter: r.getter,
		KubeClient:       reachable{&kube.Client{Factory: &runFactory{r.factory.factory, clientset}, Log: logf}},
		Releases:         storage.Init(secrets),
		Log:              logf,
		HookOutputFunc:   func(_, _, _ string) io.Writer { return io.Discard },
	}, nil
}
