package chartrun_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/chartrun"
)

const webTemplate = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: {{ .Values.web.replicas }}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: {{ .Values.web.image }}
        imagePullPolicy: {{ .Values.web.pull }}
`

const jobTemplate = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: {{ .Values.web.image }}
        imagePullPolicy: {{ .Values.web.pull }}
        args: ["migrated", "the", "schema"]
`

// writeWorkloads writes a module dir with a Deployment, a ConfigMap (not
// tracked) and, withJob, a Job.
func writeWorkloads(t *testing.T, withJob bool) string {
	files := map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"values.yaml":        "web:\n  replicas: 1\n  image: example.invalid/web:1\n  pull: Never\n",
		"templates/web.yaml": webTemplate,
		"templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n",
	}
	if withJob {
		files["templates/job.yaml"] = jobTemplate
	}
	return writeModule(t, files)
}

// waitRun is an Upgrade with the wait, running in the background.
type waitRun struct {
	progress chan []string
	done     chan struct{}
	res      chartrun.Result
	err      error
}

func startWait(r *chartrun.Releaser, dir string, timeout time.Duration, values map[string]any) *waitRun {
	w := &waitRun{progress: make(chan []string, 100), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		w.res, w.err = r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: values,
			Wait: true, WaitTimeout: timeout, Progress: func(lines []string) { w.progress <- lines }})
	}()
	return w
}

// expectProgress waits for a progress report whose lines are want.
func (w *waitRun) expectProgress(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	var last []string
	for {
		select {
		case got := <-w.progress:
			if strings.Join(got, "\n") == strings.Join(want, "\n") {
				return
			}
			last = got
		case <-w.done:
			t.Fatalf("Upgrade returned (%v) before reporting %q; last report %q", w.err, want, last)
		case <-deadline:
			t.Fatalf("no progress %q; last report %q", want, last)
		}
	}
}

func (w *waitRun) result(t *testing.T) (chartrun.Result, error) {
	t.Helper()
	select {
	case <-w.done:
		return w.res, w.err
	case <-time.After(time.Minute):
		t.Fatal("Upgrade did not return")
	}
	return chartrun.Result{}, nil
}

// markAvailable writes the status a Deployment controller writes once
// every replica of the current generation is available.
func markAvailable(t *testing.T, client kubernetes.Interface, ns, name string) {
	t.Helper()
	ctx := context.Background()
	d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := *d.Spec.Replicas
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: n, UpdatedReplicas: n,
		ReadyReplicas: n, AvailableReplicas: n}
	if _, err := client.AppsV1().Deployments(ns).UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("status of deployment %s: %v", name, err)
	}
}

// setJobStatus writes a Job's status as the Job controller would.
func setJobStatus(t *testing.T, client kubernetes.Interface, ns, name string, st func(*batchv1.Job)) {
	t.Helper()
	ctx := context.Background()
	j, err := client.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st(j)
	if _, err := client.BatchV1().Jobs(ns).UpdateStatus(ctx, j, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("status of job %s: %v", name, err)
	}
}

func jobComplete(j *batchv1.Job) {
	now := metav1.Now()
	j.Status = batchv1.JobStatus{StartTime: &now, CompletionTime: &now, Succeeded: 1,
		Conditions: []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now},
		}}
}

func jobFailing(j *batchv1.Job) {
	now := metav1.Now()
	j.Status = batchv1.JobStatus{StartTime: &now, Failed: 1, Conditions: []batchv1.JobCondition{
		{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded",
			Message: "Job has reached the specified backoff limit", LastTransitionTime: now},
	}}
}

// TestWaitReturnsOnceReady: Upgrade with the wait installs, reports the
// workloads not ready, and returns only after the Deployment is available
// and the Job complete (their status written as their controllers would;
// this cluster runs none); its watches are gone when it returns.
func TestWaitReturnsOnceReady(t *testing.T) {
	f := newFixture(t, 0)
	dir := writeWorkloads(t, true)
	w := startWait(f.r, dir, time.Minute, nil)
	w.expectProgress(t, "Deployment "+f.ns+"/web: waiting for the controller to observe generation 1",
		"Job "+f.ns+"/migrate: 0/1 succeeded")
	markAvailable(t, f.client, f.ns, "web")
	w.expectProgress(t, "Job "+f.ns+"/migrate: 0/1 succeeded")
	setJobStatus(t, f.client, f.ns, "migrate", jobComplete)
	res, err := w.result(t)
	if err != nil {
		t.Fatalf("Upgrade: %v", err)
	}
	if res.Action != chartrun.Installed || res.Wait == nil || res.Wait.Outcome != chartrun.WaitReady {
		t.Fatalf("result %+v (wait %+v), want installed and ready", res, res.Wait)
	}
	if n := chartrun.ReadyWatches(f.r); n != 0 {
		t.Fatalf("%d watches left after the wait", n)
	}
	// A run that finds the release up to date and ready returns at once.
	res, err = f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Wait: true})
	if err != nil || res.Action != chartrun.Skipped || res.Wait == nil || res.Wait.Outcome != chartrun.WaitReady {
		t.Fatalf("skipped run with the wait: %+v, %v", res, err)
	}
}

// TestWaitTimesOut: a Deployment that stays unavailable fails the run after
// the timeout with an error naming it, its progress and its condition; a
// run that finds the release up to date waits too (the retry of a run
// whose wait timed out must not pass).
func TestWaitTimesOut(t *testing.T) {
	f := newFixture(t, 0)
	dir := writeWorkloads(t, false)
	if _, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir}); err != nil {
		t.Fatal(err)
	}
	d, err := f.client.AppsV1().Deployments(f.ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1,
		UnavailableReplicas: 1, Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing,
			Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded", Message: `ReplicaSet "web-1" has timed out progressing.`}}}
	if _, err := f.client.AppsV1().Deployments(f.ns).UpdateStatus(context.Background(), d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	w := startWait(f.r, dir, 2*time.Second, nil)
	res, err := w.result(t)
	if !errors.Is(err, chartrun.ErrNotReady) {
		t.Fatalf("Upgrade: %v, want ErrNotReady", err)
	}
	for _, want := range []string{"release demo: not ready after 2s", "Deployment " + f.ns + "/web: 0/1 available",
		"condition Progressing=False ProgressDeadlineExceeded"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if res.Action != chartrun.Skipped || res.Wait == nil || res.Wait.Outcome != chartrun.WaitTimeout || res.Wait.Took < 2*time.Second {
		t.Fatalf("result %+v (wait %+v), want skipped, timed out after 2s", res, res.Wait)
	}
	if n := chartrun.ReadyWatches(f.r); n != 0 {
		t.Fatalf("%d watches left after the wait", n)
	}
}

// TestWaitStopsAtAFailedJob: a Job that failed will not complete; the wait
// ends then with an error naming it, long before its timeout.
func TestWaitStopsAtAFailedJob(t *testing.T) {
	f := newFixture(t, 0)
	dir := writeWorkloads(t, true)
	w := startWait(f.r, dir, 10*time.Minute, nil)
	w.expectProgress(t, "Deployment "+f.ns+"/web: waiting for the controller to observe generation 1",
		"Job "+f.ns+"/migrate: 0/1 succeeded")
	markAvailable(t, f.client, f.ns, "web")
	setJobStatus(t, f.client, f.ns, "migrate", jobFailing)
	res, err := w.result(t)
	if !errors.Is(err, chartrun.ErrNotReady) || !strings.Contains(err.Error(),
		"Job "+f.ns+"/migrate: failed (condition FailureTarget=True BackoffLimitExceeded") {
		t.Fatalf("Upgrade: %v, want the failed Job named", err)
	}
	if res.Wait == nil || res.Wait.Outcome != chartrun.WaitFailed {
		t.Fatalf("wait %+v, want failed", res.Wait)
	}
	if n := chartrun.ReadyWatches(f.r); n != 0 {
		t.Fatalf("%d watches left after the wait", n)
	}
}
