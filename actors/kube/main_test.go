package kube_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/test/cluster"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

var testKube *cluster.Harness

func TestMain(m *testing.M) { cluster.Main(m, &testKube) }

// onCluster gives opts a dynamic client, a REST client for raw lists and a
// discovery mapper for cfg.
func onCluster(cfg *rest.Config, opts kube.Options) kube.Options {
	opts.Client = dynamic.NewForConfigOrDie(cfg)
	opts.Raw = kubernetes.NewForConfigOrDie(cfg).CoreV1().RESTClient()
	opts.Mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kubernetes.NewForConfigOrDie(cfg).Discovery()))
	return opts
}
