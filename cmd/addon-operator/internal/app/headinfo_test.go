package app_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

const (
	headInfoMetric   = "addon_operator_tasks_queue_head_info"
	moduleInfoMetric = "addon_operator_mm_module_info"
)

// A module run stuck at the head of main shows in tasks_queue_head_info
// with the original's labels, and its series goes once the queue is empty.
func TestQueueHeadInfoWhileARunFails(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml": "alphaEnabled: true\n",
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`test -e "$(dirname "$RECORD_DIR")/go"`),
	})
	s := startApp(t, root)
	s.waitFor(t, "alpha's run failing at the head of main", func(b *board.Board) bool {
		q := b.Queues().Queues
		return len(q) > 0 && len(q[0].Tasks) > 0 && q[0].Tasks[0].Kind == messages.TaskModuleRun &&
			q[0].Tasks[0].Module == "alpha" && q[0].Tasks[0].Attempts >= 1
	})
	// The failed run stays at the head (retried), so the series is still
	// the one of this head.
	heads := series(t, s.app.Registry, headInfoMetric)
	if want := []string{"hook=,module=alpha,queue=main,task_type=ModuleRun"}; !slices.Equal(heads, want) {
		t.Fatalf("head info while alpha's run fails: %q, want %q", heads, want)
	}
	if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitReady(t)
	s.waitFor(t, "empty queues", idle)
	if heads := series(t, s.app.Registry, headInfoMetric); len(heads) != 0 {
		t.Fatalf("head info with empty queues: %q", heads)
	}
}

// mm_module_info has every module with its enabled state, and follows an
// enable and a disable in the ConfigMap.
func TestModuleInfoFollowsEnabledState(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":          "alphaEnabled: true\n",
		"modules/001-alpha/hooks/noop": hook(`{"configVersion":"v1","beforeHelm":1}`, "true"),
		"modules/002-beta/hooks/noop":  hook(`{"configVersion":"v1","beforeHelm":1}`, "true"),
	})
	s := startApp(t, root)
	s.waitReady(t)
	infos := series(t, s.app.Registry, moduleInfoMetric)
	want := []string{"critical=true,enabled=false,module=beta", "critical=true,enabled=true,module=alpha"}
	if !slices.Equal(infos, want) {
		t.Fatalf("module info at start: %q, want %q", infos, want)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"},
		Data: map[string]string{"alphaEnabled": "false", "betaEnabled": "true"}}
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	if _, err := client.CoreV1().ConfigMaps(s.ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "beta enabled, alpha disabled", func(b *board.Board) bool {
		return slices.Equal(b.EnabledModules(), []string{"beta"})
	})
	infos = series(t, s.app.Registry, moduleInfoMetric)
	want = []string{"critical=true,enabled=false,module=alpha", "critical=true,enabled=true,module=beta"}
	if !slices.Equal(infos, want) {
		t.Fatalf("module info after the ConfigMap swapped them: %q, want %q", infos, want)
	}
}

// series lists the label sets (name=value, sorted by name, comma-joined)
// of a metric's series whose value is 1, sorted; another value fails.
func series(t *testing.T, reg *prometheus.Registry, name string) []string {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			if v := m.GetGauge().GetValue(); v != 1 {
				t.Errorf("%s{%s} = %v, want 1", name, strings.Join(labels, ","), v)
			}
			out = append(out, strings.Join(labels, ","))
		}
	}
	slices.Sort(out)
	return out
}
