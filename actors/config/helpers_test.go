package config_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/config"
)

// newStore is a store of the ConfigMap addon-operator in a namespace of the
// test's own, with the client and the namespace; the ConfigMap is created
// with data unless data is nil.
func newStore(t testing.TB, data map[string]string) (*config.Store, kubernetes.Interface, string) {
	t.Helper()
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	if data != nil {
		putConfigMap(t, client, ns, data)
	}
	return config.NewStore(client, ns, "addon-operator"), client, ns
}

// putConfigMap creates the ConfigMap addon-operator with data, or replaces
// its data.
func putConfigMap(t testing.TB, client kubernetes.Interface, ns string, data map[string]string) {
	t.Helper()
	ctx := context.Background()
	cms := client.CoreV1().ConfigMaps(ns)
	cm, err := cms.Get(ctx, "addon-operator", metav1.GetOptions{})
	if err != nil {
		cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: data}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		return
	}
	cm.Data = data
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
