package image_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/image"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// chartNS is where the chart goes, enforcing the restricted Pod Security
// Standard; chartReleaseName is its release name.
const (
	chartNS          = "addon-operator"
	chartReleaseName = "ao"
	leaseName        = "addon-operator-leader-election"
	scraperName      = "scraper"
)

// The operator runs where users run it: its image, with modules baked in an
// image FROM it, installed with deploy/addon-operator's chart (two replicas,
// leader election) on a cluster with a node, in a namespace that enforces
// the restricted Pod Security Standard. The leader becomes Ready, converges
// the examples with hooks that use kubectl and the shell library through
// the pod's service account, and serves /metrics on the pod's port; when
// the leader's pod is deleted the other replica leads; a pod deleted in the
// middle of a converge stops within its grace period and the next leader
// converges; an update to a new image converges again; and through all of
// it, no release gets a new revision.
func TestChartOnNode(t *testing.T) {
	ctx, img := ensureImage(t, 15*time.Minute)
	v1, v2 := buildModulesImage(ctx, t, img, imageTag(t, "-v1")), buildModulesImage(ctx, t, img, imageTag(t, "-v2"))
	c, _, cfg := cluster.PrivateNode(t)
	for _, ref := range []string{v1, v2} {
		importImage(ctx, t, img.Podman, c, ref)
	}
	op := &inCluster{ctx: ctx, t: t, client: kubernetes.NewForConfigOrDie(cfg)}
	op.restrictedNamespace()
	t.Cleanup(op.dumpOnFailure)
	helm := newChartRelease(t, cfg)

	begin := time.Now()
	helm.install(chartValues(v1))
	op.scraper()
	leader := op.waitLeader("", "")
	t.Logf("installed: %s leads and is Ready %s after helm install", leader.Name, time.Since(begin).Round(time.Millisecond))
	op.checkConverged(leader)
	revisions := op.settled(leader)

	begin = time.Now()
	op.deletePod(leader.Name)
	leader = op.waitLeader(leader.Name, "")
	t.Logf("leader deleted: %s leads and is Ready %s later", leader.Name, time.Since(begin).Round(time.Millisecond))
	op.checkRevisions(revisions)

	op.interruptConverge(leader.Name)
	op.checkRevisions(revisions)

	begin = time.Now()
	helm.upgrade(chartValues(v2))
	leader = op.waitLeader("", v2)
	t.Logf("new image: %s leads and is Ready %s after helm upgrade", leader.Name, time.Since(begin).Round(time.Millisecond))
	op.checkConverged(leader)
	op.checkRevisions(revisions)
}

// chartValues installs ref with two replicas, the examples' ConfigMap, and
// a short shutdown grace so that an interrupted hook is killed well within
// the pod's grace period.
func chartValues(ref string) map[string]any {
	repo, tag, _ := strings.Cut(ref, ":")
	return map[string]any{
		"image":    map[string]any{"repository": repo, "tag": tag, "pullPolicy": "Never"},
		"replicas": 2,
		"config":   map[string]any{"greeter": "message: hello from the ConfigMap\n"},
		"env":      []any{map[string]any{"name": "ADDON_OPERATOR_SHUTDOWN_GRACE", "value": "5s"}},
		"rbac":     map[string]any{"rules": exampleRules},
		// The port is guarded (httpAuth); the test reads it as a
		// Prometheus bound to the chart's metrics-reader.
		"metricsReader": map[string]any{"create": true,
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": scraperName, "namespace": chartNS}}},
	}
}

// exampleRules are the ClusterRole rules `addon-operator rbac` prints for
// the modules image (the chart grants least privilege; the rest, ConfigMaps
// and Secrets in the operator's namespace that the kubectl hooks use too,
// is the chart's own Role). The shell library's hook cannot run --config
// outside the image, so they are written out here rather than computed.
var exampleRules = []any{
	map[string]any{"apiGroups": []any{"apiextensions.k8s.io"}, "resources": []any{"customresourcedefinitions"},
		"verbs": []any{"create", "get", "list", "update", "watch"}},
	map[string]any{"apiGroups": []any{"examples.addon-operator.io"}, "resources": []any{"greetings"},
		"verbs": []any{"get", "list", "watch"}},
}

// importImage saves ref from podman and imports it into the node.
func importImage(ctx context.Context, t *testing.T, p image.Podman, c *cluster.Cluster, ref string) {
	t.Helper()
	archive := filepath.Join(t.TempDir(), "image.tar")
	if _, err := p.Output(ctx, "save", "-o", archive, ref); err != nil {
		t.Fatal(err)
	}
	if err := c.ImportImage(ctx, archive); err != nil {
		t.Fatal(err)
	}
}

// chartRelease installs and upgrades deploy/addon-operator with helm's
// library, as `helm install` would.
type chartRelease struct {
	t     *testing.T
	cfg   *action.Configuration
	chart *chart.Chart
}

func newChartRelease(t *testing.T, rc *rest.Config) *chartRelease {
	t.Helper()
	cfg := &action.Configuration{}
	if err := cfg.Init(chartrun.NewRESTGetter(rc, chartNS), chartNS, "secret", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	chrt, err := loader.Load(filepath.Join(repoRoot(t), "deploy", "addon-operator"))
	if err != nil {
		t.Fatal(err)
	}
	return &chartRelease{t: t, cfg: cfg, chart: chrt}
}

func (r *chartRelease) install(values map[string]any) {
	in := action.NewInstall(r.cfg)
	in.ReleaseName, in.Namespace = chartReleaseName, chartNS
	if _, err := in.Run(r.chart, values); err != nil {
		r.t.Fatalf("helm install: %v", err)
	}
}

func (r *chartRelease) upgrade(values map[string]any) {
	up := action.NewUpgrade(r.cfg)
	up.Namespace = chartNS
	if _, err := up.Run(chartReleaseName, r.chart, values); err != nil {
		r.t.Fatalf("helm upgrade: %v", err)
	}
}

// inCluster watches the chart's pods, Lease and releases.
type inCluster struct {
	ctx    context.Context
	t      *testing.T
	client kubernetes.Interface
	// token is the scraper's: a ServiceAccount the chart binds to its
	// metrics-reader ClusterRole.
	token string
}

// scraper makes the ServiceAccount the chart's metrics-reader is bound to,
// and waits until it may read the port.
func (o *inCluster) scraper() {
	o.t.Helper()
	o.token = scenario.ServiceAccountToken(o.t, o.client, chartNS, scraperName)
	for _, path := range []string{"/metrics", "/queue"} {
		scenario.WaitAllowed(o.t, o.client, chartNS, scraperName, path)
	}
}

// get is GET url with token as the bearer token ("": none).
func get(url, token string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return http.DefaultClient.Do(req)
}

// restrictedNamespace creates chartNS enforcing the restricted standard and
// checks that it does: a pod that may run as root is refused.
func (o *inCluster) restrictedNamespace() {
	o.t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: chartNS, Labels: map[string]string{
		"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "latest"}}}
	if _, err := o.client.CoreV1().Namespaces().Create(o.ctx, ns, metav1.CreateOptions{}); err != nil {
		o.t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "as-root"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name: "c", Image: cluster.PauseImage}}}}
	_, err := o.client.CoreV1().Pods(chartNS).Create(o.ctx, pod, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "restricted") {
		o.t.Fatalf("a pod that may run as root in %s: %v, want refused by PodSecurity", chartNS, err)
	}
}

// waitLeader waits for the Lease's holder to be a Ready pod other than
// not, running image when given, and returns it.
func (o *inCluster) waitLeader(not, image string) *corev1.Pod {
	o.t.Helper()
	var leader *corev1.Pod
	o.eventually(3*time.Minute, func() error {
		lease, err := o.client.CoordinationV1().Leases(chartNS).Get(o.ctx, leaseName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		holder := ""
		if lease.Spec.HolderIdentity != nil {
			holder = *lease.Spec.HolderIdentity
		}
		if holder == "" || holder == not {
			return fmt.Errorf("lease held by %q", holder)
		}
		pod, err := o.client.CoreV1().Pods(chartNS).Get(o.ctx, holder, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("leader %s: %w", holder, err)
		}
		if image != "" && pod.Spec.Containers[0].Image != image {
			return fmt.Errorf("leader %s runs %s, want %s", holder, pod.Spec.Containers[0].Image, image)
		}
		if !podReady(pod) {
			return fmt.Errorf("leader %s not Ready (%s)", holder, pod.Status.Phase)
		}
		leader = pod
		return nil
	})
	return leader
}

func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue && pod.DeletionTimestamp == nil
		}
	}
	return false
}

// checkConverged checks what the examples' and the extra hooks wrote, every
// module's release, and /metrics on each pod's port (a follower serves it
// too).
func (o *inCluster) checkConverged(leader *corev1.Pod) {
	o.t.Helper()
	for name, want := range map[string]map[string]string{
		"shell-lib-ran": {"binding": "onStartup"}, "kubectl-saw": {"seen": "chart"},
		"greeter-published": {"message": "hello from the ConfigMap"},
	} {
		cm, err := o.client.CoreV1().ConfigMaps(chartNS).Get(o.ctx, name, metav1.GetOptions{})
		if err != nil {
			o.t.Fatalf("ConfigMap %s that a hook writes: %v", name, err)
		}
		for k, v := range want {
			if cm.Data[k] != v {
				o.t.Fatalf("ConfigMap %s: %v, want %s=%q", name, cm.Data, k, v)
			}
		}
	}
	revisions := o.releaseRevisions()
	for _, module := range []string{"echo-server", "greeter", "optional", "kubectl-user", "slow"} {
		if revisions[module] == "" {
			o.t.Fatalf("no release of module %s; releases: %v", module, revisions)
		}
	}
	pods, err := o.client.CoreV1().Pods(chartNS).List(o.ctx, metav1.ListOptions{})
	if err != nil {
		o.t.Fatal(err)
	}
	for _, pod := range pods.Items {
		if pod.Status.PodIP == "" || pod.DeletionTimestamp != nil {
			continue
		}
		o.checkMetrics(pod, pod.Name == leader.Name)
	}
}

// checkMetrics reads /metrics on the pod's port, as the scraper (an
// anonymous request is refused); the leader's shows its modules.
func (o *inCluster) checkMetrics(pod corev1.Pod, leader bool) {
	o.t.Helper()
	url := fmt.Sprintf("http://%s:%d/metrics", pod.Status.PodIP, pod.Spec.Containers[0].Ports[0].ContainerPort)
	anon, err := get(url, "")
	if err != nil {
		o.t.Fatalf("pod %s: %v", pod.Name, err)
	}
	_ = anon.Body.Close()
	if anon.StatusCode != http.StatusUnauthorized {
		o.t.Fatalf("pod %s: anonymous GET %s: %s, want 401 (the chart's httpAuth)", pod.Name, url, anon.Status)
	}
	resp, err := get(url, o.token)
	if err != nil {
		o.t.Fatalf("pod %s: %v", pod.Name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		o.t.Fatalf("pod %s: GET %s: %s", pod.Name, url, resp.Status)
	}
	if leader && !strings.Contains(string(body), `module="greeter"`) {
		o.t.Fatalf("leader %s: %s names no module greeter:\n%.2000s", pod.Name, url, body)
	}
}

// releaseRevisions maps each module's release (not the chart's own) to its
// revision, from helm's release Secrets.
func (o *inCluster) releaseRevisions() map[string]string {
	o.t.Helper()
	secrets, err := o.client.CoreV1().Secrets(chartNS).List(o.ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil {
		o.t.Fatal(err)
	}
	revisions := map[string]string{}
	for _, s := range secrets.Items {
		name := s.Labels["name"]
		if name == chartReleaseName || s.Labels["status"] != "deployed" {
			continue
		}
		revisions[name] = s.Labels["version"]
	}
	return revisions
}

// settled waits until the leader's queues are empty on consecutive reads
// of /queue with the same release revisions in between (the first converge
// may queue more work: a hook's config patch re-runs its module), and
// returns those revisions.
func (o *inCluster) settled(leader *corev1.Pod) map[string]string {
	o.t.Helper()
	url := fmt.Sprintf("http://%s:%d/queue?format=json", leader.Status.PodIP, leader.Spec.Containers[0].Ports[0].ContainerPort)
	var last map[string]string
	o.eventually(2*time.Minute, func() error {
		idle, err := queuesIdle(url, o.token)
		if err != nil || !idle {
			last = nil
			return fmt.Errorf("leader %s busy (%v)", leader.Name, err)
		}
		now := o.releaseRevisions()
		if last == nil || fmt.Sprint(now) != fmt.Sprint(last) {
			last = now
			return fmt.Errorf("leader %s idle once, revisions %v", leader.Name, now)
		}
		return nil
	})
	return last
}

// queuesIdle reads /queue?format=json: true when no queue holds a task.
func queuesIdle(url, token string) (bool, error) {
	resp, err := get(url, token)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var snap messages.QueueSnapshot
	if err := json.NewDecoder(resp.Body).Decode(&snap); err != nil {
		return false, fmt.Errorf("GET %s: %w", url, err)
	}
	for _, q := range snap.Queues {
		if len(q.Tasks) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// checkRevisions checks that no release changed revision (no upgrade ran).
func (o *inCluster) checkRevisions(want map[string]string) {
	o.t.Helper()
	got := o.releaseRevisions()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		o.t.Fatalf("release revisions changed: %v, were %v", got, want)
	}
}

// interruptConverge makes the next converge hang in module slow's hook,
// deletes the leader so that another takes over and hangs there, then
// deletes that pod in the middle of its converge: it must be gone within
// its grace period (the operator killed the hook and stopped, no SIGKILL),
// and the next leader converges.
func (o *inCluster) interruptConverge(leader string) {
	o.t.Helper()
	o.configMap("slow-down", true)
	o.deletePod(leader)
	var hanging string
	o.eventually(3*time.Minute, func() error {
		cm, err := o.client.CoreV1().ConfigMaps(chartNS).Get(o.ctx, "slow-started", metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("no leader in the slow hook yet: %w", err)
		}
		hanging = cm.Data["pod"]
		return nil
	})
	pod, err := o.client.CoreV1().Pods(chartNS).Get(o.ctx, hanging, metav1.GetOptions{})
	if err != nil {
		o.t.Fatal(err)
	}
	if podReady(pod) {
		o.t.Fatalf("pod %s is Ready in the middle of its first converge", hanging)
	}
	o.configMap("slow-down", false)
	begin := time.Now()
	o.deletePod(hanging)
	o.eventually(2*time.Minute, func() error {
		_, err := o.client.CoreV1().Pods(chartNS).Get(o.ctx, hanging, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("pod %s still there (%v)", hanging, err)
	})
	stopped, grace := time.Since(begin), time.Duration(*pod.Spec.TerminationGracePeriodSeconds)*time.Second
	if stopped >= grace {
		o.t.Fatalf("pod %s deleted during a converge took %s to stop, its grace period is %s", hanging, stopped, grace)
	}
	next := o.waitLeader(hanging, "")
	o.t.Logf("pod %s deleted in its converge stopped in %s (grace %s); %s leads and is Ready %s after the delete",
		hanging, stopped.Round(time.Millisecond), grace, next.Name, time.Since(begin).Round(time.Millisecond))
}

// configMap creates (or deletes) an empty ConfigMap in chartNS.
func (o *inCluster) configMap(name string, present bool) {
	o.t.Helper()
	var err error
	if present {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}
		_, err = o.client.CoreV1().ConfigMaps(chartNS).Create(o.ctx, cm, metav1.CreateOptions{})
	} else {
		err = o.client.CoreV1().ConfigMaps(chartNS).Delete(o.ctx, name, metav1.DeleteOptions{})
	}
	if err != nil {
		o.t.Fatal(err)
	}
}

func (o *inCluster) deletePod(name string) {
	o.t.Helper()
	if err := o.client.CoreV1().Pods(chartNS).Delete(o.ctx, name, metav1.DeleteOptions{}); err != nil {
		o.t.Fatal(err)
	}
}

// eventually retries check until it passes or limit runs out.
func (o *inCluster) eventually(limit time.Duration, check func() error) {
	o.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) || o.ctx.Err() != nil {
			o.t.Fatalf("after %s: %v", limit, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// dumpOnFailure logs the pods' states and their last log lines.
func (o *inCluster) dumpOnFailure() {
	if !o.t.Failed() {
		return
	}
	ctx := context.Background()
	pods, err := o.client.CoreV1().Pods(chartNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		o.t.Logf("list pods: %v", err)
		return
	}
	tail := int64(40)
	for _, pod := range pods.Items {
		logs, err := o.client.CoreV1().Pods(chartNS).GetLogs(pod.Name, &corev1.PodLogOptions{TailLines: &tail}).DoRaw(ctx)
		o.t.Logf("pod %s: phase %s, ready %v, statuses %+v\nlast log lines (%v):\n%s",
			pod.Name, pod.Status.Phase, podReady(&pod), pod.Status.ContainerStatuses, err, logs)
	}
}
