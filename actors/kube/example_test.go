package kube_test

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// A hook's kubernetes binding on the ConfigMaps of one namespace, against
// the test cluster: the owner (a probe here) gets the binding's
// Synchronization, then one HookEvent per change; it alone turns them into
// tasks.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	cfg, err := cluster.RestConfig(testKube.Kubeconfig())
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	ns, err := client.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "kube-example-"}}, metav1.CreateOptions{})
	if err != nil {
		panic(err)
	}
	defer client.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})

	kit := actortest.New(t)
	global, report := kit.NewProbe(), kit.NewProbe()
	pid := kit.Spawn("kube", kube.New(onCluster(cfg, kube.Options{Owner: actortest.EveryOwner(global.PID), Report: report.PID})))
	hook, err := hookconfig.Parse([]byte(`{"configVersion":"v1","kubernetes":[{"name":"cms","kind":"ConfigMap","keepFullObjectsInMemory":false,`+
		`"jqFilter":".data","namespace":{"nameSelector":{"matchNames":["`+ns.Name+`"]}}}]}`), bindings.ScopeGlobal)
	if err != nil {
		panic(err)
	}
	kit.Send(pid, messages.WatchKube{Owner: messages.OwnerGlobal,
		Monitors: []messages.HookMonitor{{Hook: "cms.sh", Version: hook.Version, Binding: hook.Kubernetes[0]}}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := actortest.Expect[messages.HookEvent](global, time.Minute)
	fmt.Println(sync.Owner, sync.Hook, sync.Binding, sync.Source, sync.Sync)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Data: map[string]string{"k": "v"}}
	if _, err := client.CoreV1().ConfigMaps(ns.Name).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		panic(err)
	}
	ev := actortest.Expect[messages.HookEvent](global, time.Minute)
	fmt.Println(ev.Owner, ev.Hook, ev.Binding, ev.Source, ev.Sync, string(ev.Context))
	// Output:
	// global cms.sh cms Synchronization of ConfigMap true
	// global cms.sh cms kubernetes ConfigMap false [{"binding":"cms","type":"Event","watchEvent":"Added","filterResult":{"k":"v"}}]
}
