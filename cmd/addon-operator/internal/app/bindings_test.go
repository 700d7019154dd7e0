package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// recordContext is a hook body that appends its binding context, one line
// per run, to $RECORD_DIR/<name>.
func recordContext(name string) string {
	return `mkdir -p $RECORD_DIR; jq -c . $BINDING_CONTEXT_PATH >> $RECORD_DIR/` + name
}

func contexts(b *board.Board, key string) int { return b.Hooks()[key].Contexts }

// A schedule binding fires with its name in the binding context.
func TestScheduleFiresWithItsBindingName(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/tick": hook(`{"configVersion":"v1","schedule":[{"name":"every-second","crontab":"*/1 * * * * *"}]}`,
			recordContext("tick")),
	})
	s := startApp(t, root)
	s.waitReady(t)
	s.waitFor(t, "two ticks", func(b *board.Board) bool { return contexts(b, "global:tick") >= 2 })
	first := strings.Split(s.record(t, "tick"), "\n")[0]
	scenario.JSONEqual(t, "schedule context", first, `[{"binding":"every-second","type":"Schedule"}]`)
}

// spec/HOOKS.md: `*/2 * * * * *` fires every two seconds with its binding
// name; with allowFailure a failed run is counted and dropped, not retried
// (retries run every 200 ms here), and its queue goes on.
func TestScheduleEveryTwoSecondsAllowFailure(t *testing.T) {
	config := `{"configVersion":"v1","schedule":[{"name":"every-2s","crontab":"*/2 * * * * *","allowFailure":true,"queue":"ticks"}]}`
	root := tree(t, map[string]string{"global-hooks/tick": hook(config, recordContext("tick")+"\nexit 1")})
	s := startApp(t, root)
	s.waitReady(t)
	// the fourth failure is recorded after the third run's task was dropped
	s.waitFor(t, "four failed ticks", func(b *board.Board) bool { return b.Hooks()["global:tick"].Failures >= 4 })
	lines := strings.Split(strings.TrimSpace(s.record(t, "tick")), "\n")
	if len(lines) < 3 {
		t.Fatalf("%d runs recorded", len(lines))
	}
	for _, line := range lines {
		scenario.JSONEqual(t, "schedule context", line, `[{"binding":"every-2s","type":"Schedule"}]`)
	}
	if got := counterValue(t, s.app, "addon_operator_tasks_dropped_total"); got < 3 {
		t.Fatalf("dropped tasks counted %v, want at least 3 (a failed run that allows failure is not retried)", got)
	}
	if got := counterValue(t, s.app, "addon_operator_global_hook_allowed_errors_total"); got < 3 {
		t.Fatalf("allowed errors counted %v, want at least 3", got)
	}
}

// counterValue sums a counter's series in the app's registry.
func counterValue(t *testing.T, a *app.App, name string) float64 {
	t.Helper()
	families, err := a.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() == name {
			for _, m := range f.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

// A named queue keeps running while the main queue is stuck on a failing
// hook (beforeAll: the global schedules start only after onStartup).
func TestNamedQueueRunsWhileMainIsStuck(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/broken": hook(`{"configVersion":"v1","beforeAll":1}`, "exit 1"),
		"global-hooks/side": hook(`{"configVersion":"v1","schedule":[{"crontab":"*/1 * * * * *","queue":"side"}]}`,
			recordContext("side")),
	})
	s := startApp(t, root)
	s.waitFor(t, "side runs while main retries", func(b *board.Board) bool {
		return contexts(b, "global:side") >= 2 && b.Hooks()["global:broken"].Failures >= 1
	})
	if s.app.Board.Ready() {
		t.Fatal("ready although onStartup keeps failing")
	}
}

// kubernetes binding: Synchronization with the existing objects, then
// events; a jqFilter on labels runs the hook on a label change, not on a
// data change.
func TestKubernetesBindingSyncAndEvents(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	cms := client.CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	mk := func(name string, labels map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Data: map[string]string{"k": "1"}}
	}
	if _, err := cms.Create(ctx, mk("pre", map[string]string{"app": "x"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	config := `{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",` +
		`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},"labelSelector":{"matchLabels":{"app":"x"}},` +
		`"jqFilter":".metadata.labels"}]}`
	s := startAppIn(t, tree(t, map[string]string{"global-hooks/watch": hook(config, recordContext("watch"))}), ns)
	s.waitReady(t)
	s.waitFor(t, "Synchronization", func(b *board.Board) bool { return contexts(b, "global:watch") >= 1 })

	if _, err := cms.Create(ctx, mk("new", map[string]string{"app": "x"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "Added", func(b *board.Board) bool { return contexts(b, "global:watch") >= 2 })
	cm, _ := cms.Get(ctx, "new", metav1.GetOptions{})
	cm.Data["k"] = "2" // data only: the filter result stays
	cm, _ = cms.Update(ctx, cm, metav1.UpdateOptions{})
	cm.Labels["extra"] = "y"
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "Modified", func(b *board.Board) bool { return contexts(b, "global:watch") >= 3 })
	if err := cms.Delete(ctx, "new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "Deleted", func(b *board.Board) bool { return contexts(b, "global:watch") >= 4 })

	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.record(t, "watch")), "\n") {
		var list []map[string]any
		if err := json.Unmarshal([]byte(line), &list); err != nil {
			t.Fatalf("binding context %q: %v", line, err)
		}
		got = append(got, list...)
	}
	if len(got) != 4 {
		t.Fatalf("got %d contexts, want 4 (no run for the data change): %v", len(got), got)
	}
	if got[0]["type"] != "Synchronization" || len(got[0]["objects"].([]any)) != 1 {
		t.Fatalf("first context %v", got[0])
	}
	for i, want := range []string{"Added", "Modified", "Deleted"} {
		c := got[i+1]
		if c["type"] != "Event" || c["watchEvent"] != want || c["binding"] != "cms" {
			t.Fatalf("context %d: %v, want %s", i+1, c, want)
		}
	}
	labels := got[2]["filterResult"].(map[string]any)
	if labels["extra"] != "y" {
		t.Fatalf("Modified filterResult %v", labels)
	}
}

// The older form (onKubernetesEvent) gets its own binding context.
func TestOlderFormBindingContext(t *testing.T) {
	ns := kube.Namespace(t)
	config := `{"onKubernetesEvent":[{"name":"secrets","kind":"secret","event":["add"],` +
		`"namespaceSelector":{"matchNames":["` + ns + `"]}}]}`
	s := startAppIn(t, tree(t, map[string]string{"global-hooks/old": hook(config, recordContext("old"))}), ns)
	s.waitReady(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s1"}, StringData: map[string]string{"a": "b"}}
	if _, err := client.CoreV1().Secrets(ns).Create(context.Background(), sec, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "the add event", func(b *board.Board) bool { return contexts(b, "global:old") >= 1 })
	line := strings.Split(strings.TrimSpace(s.record(t, "old")), "\n")
	scenario.JSONEqual(t, "older-form context", line[len(line)-1],
		`[{"binding":"secrets","resourceEvent":"add","resourceNamespace":"`+ns+`","resourceKind":"Secret","resourceName":"s1"}]`)
}

// A module's kubernetes bindings start with its first run: their
// Synchronization runs between onStartup and beforeHelm (LIFECYCLE-STEPS
// step 5); later events run the hook from the queue.
func TestModuleSynchronizationInsideTheFirstRun(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "seen", Labels: map[string]string{"watch": "me"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	watch := `{"configVersion":"v1","kubernetes":[{"name":"labelled","apiVersion":"v1","kind":"ConfigMap",` +
		`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},"labelSelector":{"matchLabels":{"watch":"me"}}}]}`
	root := tree(t, map[string]string{
		"modules/values.yaml":         "alphaEnabled: true\n",
		"modules/001-alpha/hooks/a":   hook(`{"configVersion":"v1","onStartup":1}`, `record onStartup order`),
		"modules/001-alpha/hooks/b":   hook(`{"configVersion":"v1","beforeHelm":1}`, `record beforeHelm order`),
		"modules/001-alpha/hooks/k8s": hook(watch, `record "$(jq -r '.[0].type + ":" + (.[0].objects // [] | length | tostring)' $BINDING_CONTEXT_PATH)" order`),
	})
	s := startAppIn(t, root, ns)
	s.waitReady(t)
	if got, want := s.record(t, "order"), "onStartup\nSynchronization:1\nbeforeHelm\n"; got != want {
		t.Fatalf("first run\n%s\nwant\n%s", got, want)
	}
	other := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "later", Labels: map[string]string{"watch": "me"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), other, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "the event run", func(b *board.Board) bool { return contexts(b, "module/alpha:hooks/k8s") >= 2 })
	if got := s.record(t, "order"); !strings.HasSuffix(got, "Event:0\n") {
		t.Fatalf("after the event\n%s", got)
	}
}

// An ORDER binding of a hook with kubernetes bindings gets their snapshots.
func TestBeforeHelmGetsSnapshots(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	for _, name := range []string{"one", "two"} {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"snap": "yes"}}}
		if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	config := `{"configVersion":"v1","beforeHelm":1,"kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",` +
		`"executeHookOnSynchronization":false,"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},` +
		`"labelSelector":{"matchLabels":{"snap":"yes"}},"jqFilter":".metadata.name"}]}`
	root := tree(t, map[string]string{
		"modules/values.yaml": "alphaEnabled: true\n",
		"modules/001-alpha/hooks/h": hook(config,
			`record "$(jq -c '[.[0].binding, [.[0].snapshots.cms[].filterResult]]' $BINDING_CONTEXT_PATH)" seen`),
	})
	s := startAppIn(t, root, ns)
	s.waitReady(t)
	if got := strings.TrimSpace(s.record(t, "seen")); got != `["beforeHelm",["one","two"]]` {
		t.Fatalf("beforeHelm saw %s", got)
	}
}

// A namespace label selector follows namespaces being labelled: objects of
// a namespace that starts to match are watched from then on.
func TestNamespaceLabelSelectorFollowsNamespaces(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	ctx := context.Background()
	label := "watch-" + ns
	config := `{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",` +
		`"executeHookOnSynchronization":false,"namespace":{"labelSelector":{"matchLabels":{"` + label + `":"yes"}}}}]}`
	s := startAppIn(t, tree(t, map[string]string{"global-hooks/watch": hook(config, recordContext("ns"))}), ns)
	s.waitReady(t)
	other := kube.Namespace(t)
	nsObj, err := client.CoreV1().Namespaces().Get(ctx, other, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nsObj.Labels = map[string]string{label: "yes"}
	if _, err := client.CoreV1().Namespaces().Update(ctx, nsObj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The monitor picks the namespace up asynchronously: create objects
	// until one is reported (each create is an event once it watches).
	for i := 0; contexts(s.app.Board, "global:watch") == 0; i++ {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}
		if _, err := client.CoreV1().ConfigMaps(other).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		_ = s.app.Board.WaitFor(waitCtx, func(b *board.Board) bool { return contexts(b, "global:watch") > 0 })
		cancel()
		if i > 40 {
			t.Fatal("no event from the newly labelled namespace")
		}
	}
	line := strings.Split(strings.TrimSpace(s.record(t, "ns")), "\n")[0]
	if !strings.Contains(line, `"watchEvent":"Added"`) || !strings.Contains(line, other) {
		t.Fatalf("context %s", line)
	}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "unlabelled"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A long global hook in a named queue does not hold the global hooks of
// the main queue: the converge finishes while it runs.
func TestLongGlobalHookInNamedQueueDoesNotBlockMain(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/slow": hook(`{"configVersion":"v1","schedule":[{"crontab":"*/1 * * * * *","queue":"slow"}]}`,
			`touch $RECORD_DIR/slow-started; sleep 5`),
		"global-hooks/all": hook(`{"configVersion":"v1","beforeAll":1,"afterAll":1}`, `record all order`),
	})
	if err := os.MkdirAll(filepath.Join(root, "record"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startApp(t, root)
	s.waitFor(t, "the slow hook running in its queue", func(b *board.Board) bool {
		for _, q := range b.Queues().Queues {
			if q.Name == "slow" && len(q.Tasks) > 0 && q.Tasks[0].Running {
				return true
			}
		}
		return false
	})
	s.waitReady(t)
	if got := s.record(t, "order"); got != "all\nall\n" {
		t.Fatalf("beforeAll and afterAll ran %q", got)
	}
	if runs := s.app.Board.Hooks()["global:slow"].Runs; runs != 0 {
		t.Fatalf("the slow hook finished %d runs: the test did not overlap", runs)
	}
}
