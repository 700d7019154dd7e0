package cluster_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// A restarted apiserver serves the same URL with the same credentials and
// the objects stored before; while it is down, requests fail.
func TestRestartAPIServer(t *testing.T) {
	c, dir, cfg := cluster.Private(t)
	ctx := cluster.TestContext(t, 5*time.Minute)
	client := kubernetes.NewForConfigOrDie(cfg)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kept"}, Data: map[string]string{"k": "v"}}
	created, err := client.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	oldPID := readPID(t, dir, "kube-apiserver")

	if err := c.StopAPIServer(); err != nil {
		t.Fatalf("stop apiserver: %v", err)
	}
	waitProcessGone(t, oldPID)
	if _, err := client.CoreV1().ConfigMaps("default").Get(ctx, "kept", metav1.GetOptions{}); err == nil {
		t.Fatal("get with the apiserver stopped succeeded")
	}
	if err := c.StartAPIServer(ctx); err != nil {
		t.Fatalf("start apiserver: %v", err)
	}
	if err := c.StartAPIServer(ctx); err == nil {
		t.Fatal("a second StartAPIServer on a running apiserver succeeded")
	}
	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatalf("restart apiserver: %v", err)
	}
	if pid := readPID(t, dir, "kube-apiserver"); pid == oldPID {
		t.Fatalf("apiserver pid %d unchanged after restart", pid)
	}
	got, err := client.CoreV1().ConfigMaps("default").Get(ctx, "kept", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get after restart with the old client: %v", err)
	}
	if got.ResourceVersion != created.ResourceVersion || got.Data["k"] != "v" {
		t.Fatalf("after restart: %+v, want resource version %s", got, created.ResourceVersion)
	}
	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("stop: %v", err)
	}
}
