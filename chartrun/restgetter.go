package chartrun

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// RESTGetter hands helm the operator's own rest config, so that helm talks to
// the cluster with the operator's credentials, QPS and burst, and never
// looks for a kubeconfig of its own ($HOME/.kube, $KUBECONFIG).
// The discovery cache and REST mapper are built once and shared.
type RESTGetter struct {
	config    *rest.Config
	namespace string

	once      sync.Once
	discovery discovery.CachedDiscoveryInterface
	mapper    meta.RESTMapper
	err       error
}

// NewRESTGetter returns a getter for config whose default namespace is namespace.
func NewRESTGetter(config *rest.Config, namespace string) *RESTGetter {
	return &RESTGetter{config: rest.CopyConfig(config), namespace: namespace}
}

// ToRESTConfig returns a copy of the operator's rest config.
func (g *RESTGetter) ToRESTConfig() (*rest.Config, error) {
	return rest.CopyConfig(g.config), nil
}

// ToDiscoveryClient returns the shared, memory-cached discovery client.
func (g *RESTGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	g.init()
	return g.discovery, g.err
}

// ToRESTMapper returns the shared mapper, which re-reads discovery on a miss.
func (g *RESTGetter) ToRESTMapper() (meta.RESTMapper, error) {
	g.init()
	return g.mapper, g.err
}

// ToRawKubeConfigLoader returns a loader that knows only the namespace: it
// has no file to read, which is the point.
func (g *RESTGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["operator"] = &clientcmdapi.Cluster{Server: g.config.Host}
	cfg.AuthInfos["operator"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["operator"] = &clientcmdapi.Context{Cluster: "operator", AuthInfo: "operator", Namespace: g.namespace}
	cfg.CurrentContext = "operator"
	return clientcmd.NewDefaultClientConfig(*cfg, &clientcmd.ConfigOverrides{})
}

func (g *RESTGetter) init() {
	g.once.Do(func() {
		dc, err := discovery.NewDiscoveryClientForConfig(g.config)
		if err != nil {
			g.err = fmt.Errorf("discovery client for %s: %w", g.config.Host, err)
			return
		}
		g.discovery = memory.NewMemCacheClient(dc)
		deferred := restmapper.NewDeferredDiscoveryRESTMapper(g.discovery)
		g.mapper = restmapper.NewShortcutExpander(deferred, g.discovery, nil)
	})
}
