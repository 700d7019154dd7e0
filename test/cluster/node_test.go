package cluster_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// TestNodeRunsAPod starts a one-node cluster of its own and checks the whole
// chain: a Pod runs to completion and its log is served, a Deployment gets a
// Ready pod (controller manager and scheduler), and deleting a namespace
// that holds it completes (namespace controller and kubelet together).
func TestNodeRunsAPod(t *testing.T) {
	_, _, cfg := cluster.PrivateNode(t)
	ctx := cluster.TestContext(t, 5*time.Minute)
	client := kubernetes.NewForConfigOrDie(cfg)
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "node-test"}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	t.Run("pod succeeds", func(t *testing.T) { podSucceeds(ctx, t, client, ns.Name) })
	t.Run("deployment gets a ready pod", func(t *testing.T) { deploymentReady(ctx, t, client, ns.Name) })
	t.Run("namespace deletion completes", func(t *testing.T) {
		if err := client.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(ctx, t, 2*time.Minute, func() error {
			_, err := client.CoreV1().Namespaces().Get(ctx, ns.Name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("namespace %s still there (%v)", ns.Name, err)
		})
	})
}

func podSucceeds(ctx context.Context, t *testing.T, client kubernetes.Interface, ns string) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name: "hello", Image: cluster.PauseImage, ImagePullPolicy: corev1.PullNever,
				Args: []string{"hello", "from", "the", "node"},
			}},
		},
	}
	createAndWait(ctx, t, client.CoreV1().Pods(ns), pod, func(got *corev1.Pod) error {
		if got.Status.Phase == corev1.PodFailed {
			t.Fatalf("pod failed: %+v", got.Status)
		}
		if got.Status.Phase != corev1.PodSucceeded {
			return fmt.Errorf("pod phase %s", got.Status.Phase)
		}
		return nil
	})
	logs, err := client.CoreV1().Pods(ns).GetLogs(pod.Name, &corev1.PodLogOptions{}).DoRaw(ctx)
	if err != nil {
		t.Fatalf("pod log: %v", err)
	}
	if strings.TrimSpace(string(logs)) != "hello from the node" {
		t.Errorf("pod log = %q, want %q", logs, "hello from the node")
	}
}

func deploymentReady(ctx context.Context, t *testing.T, client kubernetes.Interface, ns string) {
	labels := map[string]string{"app": "pause"}
	one, grace := int32(1), int64(1)
	deploy := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "pause"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &one,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					// The namespace controller waits this long before it looks again.
					TerminationGracePeriodSeconds: &grace,
					Containers: []corev1.Container{{
						Name: "pause", Image: cluster.PauseImage, ImagePullPolicy: corev1.PullNever,
					}},
				},
			},
		},
	}
	createAndWait(ctx, t, client.AppsV1().Deployments(ns), deploy, func(got *appsv1.Deployment) error {
		if got.Status.ReadyReplicas != 1 {
			return fmt.Errorf("deployment has %d ready replicas", got.Status.ReadyReplicas)
		}
		return nil
	})
}

// objects are the create and get of one kind's typed client.
type objects[T any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
}

// createAndWait creates obj and reads it back until ready passes, within
// two minutes.
func createAndWait[T metav1.Object](ctx context.Context, t *testing.T, c objects[T], obj T, ready func(T) error) {
	t.Helper()
	if _, err := c.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, 2*time.Minute, func() error {
		got, err := c.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		return ready(got)
	})
}

// eventually retries check until it passes or limit runs out.
func eventually(ctx context.Context, t *testing.T, limit time.Duration, check func() error) {
	t.Helper()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		err := check()
		if err == nil {
			return
		}
		select {
		case <-deadline.C:
			t.Fatalf("after %s: %v", limit, err)
		case <-ctx.Done():
			t.Fatalf("%v: %v", ctx.Err(), err)
		case <-tick.C:
		}
	}
}
