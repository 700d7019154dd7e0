package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

const readyWebDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: example.invalid/web:1
`

// A module whose module.yaml asks for the wait: its run shows the wait
// (module state, queue task status) while its Deployment is not available,
// fails after the timeout naming it and is retried; afterHelm runs only
// once the Deployment is available (its status written as the controller
// would: this cluster runs none). The waits are counted by outcome.
func TestModuleRunWaitsForItsWorkloads(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "webEnabled: true\n",
		"modules/001-web/Chart.yaml":          "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"modules/001-web/module.yaml":         "readiness:\n  wait: true\n  timeout: 2s\n",
		"modules/001-web/templates/web.yaml":  readyWebDeployment,
		"modules/001-web/hooks/after-helm.sh": hook(`{"configVersion":"v1","afterHelm":1}`, recordContext("after-helm")),
	})
	s := startApp(t, root)
	waiting := "waiting for Deployment " + s.ns + "/web: waiting for the controller to observe generation 1"
	s.waitFor(t, "the wait shown in the module state and the queue", func(b *board.Board) bool {
		st := b.Modules()["web"]
		return st.Wait != nil && len(st.Wait.NotReady) == 1 && "waiting for "+st.Wait.NotReady[0] == waiting &&
			runningStatus(b.Queues(), "web") == waiting
	})
	s.waitFor(t, "the run failed after the timeout", func(b *board.Board) bool {
		err := lastError(b.Queues(), "web")
		return strings.Contains(err, "release web: not ready after 2s: Deployment "+s.ns+"/web: waiting for the controller")
	})
	if _, err := os.Stat(filepath.Join(s.dir, "record", "after-helm")); !os.IsNotExist(err) {
		t.Fatalf("afterHelm ran before the Deployment was ready (%v)", err)
	}
	markDeploymentAvailable(t, s.ns, "web")
	s.waitReady(t)
	if got := s.record(t, "after-helm"); strings.Count(got, "\n") != 1 {
		t.Fatalf("afterHelm ran %d times, want once: %s", strings.Count(got, "\n"), got)
	}
	if st := s.app.Board.Modules()["web"]; st.Wait != nil {
		t.Fatalf("the wait is still shown after the run: %+v", st.Wait)
	}
	if n := counterWithLabel(t, s, "addon_operator_helm_ready_waits_total", "outcome", "timeout"); n < 1 {
		t.Fatalf("%v timeouts counted, want at least 1", n)
	}
	if n := counterWithLabel(t, s, "addon_operator_helm_ready_waits_total", "outcome", "ready"); n != 1 {
		t.Fatalf("%v ready waits counted, want 1", n)
	}
}

// runningStatus is the status of the module's running task.
func runningStatus(snap messages.QueueSnapshot, module string) string {
	for _, q := range snap.Queues {
		for _, t := range q.Tasks {
			if t.Module == module && t.Running {
				return t.Status
			}
		}
	}
	return ""
}

// lastError is the last error of the module's task that failed.
func lastError(snap messages.QueueSnapshot, module string) string {
	for _, q := range snap.Queues {
		for _, t := range q.Tasks {
			if t.Module == module && t.LastError != "" {
				return t.LastError
			}
		}
	}
	return ""
}

// markDeploymentAvailable writes the status a Deployment controller
// writes once its replica is available.
func markDeploymentAvailable(t *testing.T, ns, name string) {
	t.Helper()
	ctx := context.Background()
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1,
		ReadyReplicas: 1, AvailableReplicas: 1}
	if _, err := client.AppsV1().Deployments(ns).UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// counterWithLabel sums the series of a counter whose label has value.
func counterWithLabel(t *testing.T, s *started, name, label, value string) float64 {
	t.Helper()
	families, err := s.app.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					sum += m.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}
