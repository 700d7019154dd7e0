package chartrun_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// TestWaitOnANode waits for workloads that a real node runs (the
// controllers, the scheduler and the kubelet of cluster.PrivateNode): a
// Deployment of the node's image becomes available and a Job of it
// completes, so the wait returns; a Deployment whose image cannot be
// pulled times out with the pull error of its pod.
func TestWaitOnANode(t *testing.T) {
	_, _, cfg := cluster.PrivateNode(t)
	t.Run("available and complete", func(t *testing.T) {
		r := nodeReleaser(t, cfg, "ready")
		values := map[string]any{"web": map[string]any{"replicas": 2, "image": cluster.PauseImage, "pull": "Never"}}
		res, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: writeWorkloads(t, true),
			Values: values, Wait: true, WaitTimeout: 3 * time.Minute})
		if err != nil {
			t.Fatalf("Upgrade: %v", err)
		}
		if res.Action != chartrun.Installed || res.Wait == nil || res.Wait.Outcome != chartrun.WaitReady {
			t.Fatalf("result %+v (wait %+v), want installed and ready", res, res.Wait)
		}
		t.Logf("ready after %s", res.Wait.Took.Round(time.Millisecond))
	})
	t.Run("image that cannot be pulled", func(t *testing.T) {
		r := nodeReleaser(t, cfg, "broken")
		values := map[string]any{"web": map[string]any{"image": "registry.invalid/nope:1", "pull": "IfNotPresent"}}
		res, err := r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: writeWorkloads(t, false),
			Values: values, Wait: true, WaitTimeout: 15 * time.Second})
		if !errors.Is(err, chartrun.ErrNotReady) || res.Wait == nil || res.Wait.Outcome != chartrun.WaitTimeout {
			t.Fatalf("Upgrade: %v (wait %+v), want a timeout", err, res.Wait)
		}
		msg := err.Error()
		if !strings.Contains(msg, "Deployment broken/web: 0/1 available") ||
			!strings.Contains(msg, ": container web waiting: ErrImagePull") && !strings.Contains(msg, ": container web waiting: ImagePullBackOff") {
			t.Fatalf("error %q does not name the Deployment and its pod's pull error", msg)
		}
		if n := chartrun.ReadyWatches(r); n != 0 {
			t.Fatalf("%d watches left after the wait", n)
		}
		t.Logf("error: %v", err)
	})
}

// nodeReleaser creates namespace ns in the node's cluster and returns a
// releaser for it.
func nodeReleaser(t *testing.T, cfg *rest.Config, ns string) *chartrun.Releaser {
	t.Helper()
	client := kubernetes.NewForConfigOrDie(cfg)
	namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
	if _, err := client.CoreV1().Namespaces().Create(context.Background(), namespace, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := chartrun.NewReleaser(cfg, ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
