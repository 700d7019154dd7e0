package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// The spec scenarios run the built binary on a tree of modules and hooks
// the test writes. Hooks record what they saw with `record TEXT FILE`
// into $RECORD_DIR, which the test reads.

// recordLib defines record: it appends "$1" to $RECORD_DIR/$2.
const recordLib = `record() { mkdir -p "$RECORD_DIR"; echo "$1" >> "$RECORD_DIR/$2"; }
`

// hook is a bash hook printing config on --config and running body.
func hook(config, body string) string {
	return "#!/usr/bin/env bash\nset -euo pipefail\n" + recordLib +
		"if [[ ${1:-} == --config ]]; then echo '" + config + "'; exit 0; fi\n" + body + "\n"
}

// tree writes files under a new temp dir and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

// startSpec runs the operator on root in ns with $RECORD_DIR set.
func startSpec(t *testing.T, root, ns string, env ...string) *operator {
	t.Helper()
	return startOperator(t, root, ns, append([]string{"RECORD_DIR=" + filepath.Join(root, "record")}, env...)...)
}

// record reads what hooks recorded into file name.
func record(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "record", name))
	if err != nil {
		t.Fatalf("record %s: %v", name, err)
	}
	return string(data)
}

// moduleState is a module as `addon-operator module list -o json` shows it.
type moduleState struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	LastRun string `json:"lastRun"`
	Tasks   int    `json:"tasks"`
}

// modules asks the running operator for its modules through the CLI.
func (op *operator) modules(t *testing.T) map[string]moduleState {
	t.Helper()
	var list []moduleState
	if err := json.Unmarshal([]byte(op.cli(t, "module", "list", "-o", "json")), &list); err != nil {
		t.Fatalf("module list: %v", err)
	}
	out := map[string]moduleState{}
	for _, m := range list {
		out[m.Name] = m
	}
	return out
}

// enabledModules lists the enabled modules in module order.
func (op *operator) enabledModules(t *testing.T) []string {
	t.Helper()
	var list []moduleState
	if err := json.Unmarshal([]byte(op.cli(t, "module", "list", "-o", "json")), &list); err != nil {
		t.Fatalf("module list: %v", err)
	}
	out := []string{}
	for _, m := range list {
		if m.Enabled {
			out = append(out, m.Name)
		}
	}
	return out
}

// waitUntil checks cond now and after every "queues idle" record from now
// on, until it holds: every reaction this waits for ends with the queues
// going idle.
func (op *operator) waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	from := op.logLen()
	for !cond() {
		op.waitLog(t, 60*time.Second, what+` (then "queues idle")`, func(recs []map[string]any) bool {
			for ; from < len(recs); from++ {
				if recs[from]["msg"] == "queues idle" {
					from++
					return true
				}
			}
			return false
		})
	}
}

func (op *operator) logLen() int {
	op.mu.Lock()
	defer op.mu.Unlock()
	return len(op.logs)
}

func jsonEqual(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: %v in %q", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s\n got %s\nwant %s", what, got, want)
	}
}

// putConfigMap creates or replaces the data of ConfigMap addon-operator.
func putConfigMap(t *testing.T, ns string, data map[string]string) {
	t.Helper()
	ctx := context.Background()
	cms := kubernetes.NewForConfigOrDie(kube.Config(t)).CoreV1().ConfigMaps(ns)
	cm, err := cms.Get(ctx, "addon-operator", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: data}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	cm.Data = data
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// configMapData is a ConfigMap's data, nil when it does not exist.
func configMapData(t *testing.T, ns, name string) map[string]string {
	t.Helper()
	cm, err := kubernetes.NewForConfigOrDie(kube.Config(t)).CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data == nil {
		return map[string]string{}
	}
	return cm.Data
}
