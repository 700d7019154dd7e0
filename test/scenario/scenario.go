package scenario

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// RecordLib defines the shell function record: `record TEXT FILE` appends
// TEXT to $RECORD_DIR/FILE.
const RecordLib = `record() { mkdir -p "$RECORD_DIR"; echo "$1" >> "$RECORD_DIR/$2"; }
`

// Hook is a bash hook that prints config on --config and otherwise runs
// body, with record defined.
func Hook(config, body string) string {
	return "#!/usr/bin/env bash\nset -euo pipefail\n" + RecordLib +
		"if [[ ${1:-} == --config ]]; then echo '" + config + "'; exit 0; fi\n" + body + "\n"
}

// JSONEqual fails the test unless got and want are the same JSON value.
func JSONEqual(t testing.TB, what, got, want string) {
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

// WriteTree writes files (a path under root to its content) with mode
// perm, creating their dirs; it fails the test when one cannot be written.
func WriteTree(t testing.TB, root string, files map[string]string, perm os.FileMode) {
	t.Helper()
	if err := cluster.WriteTree(root, files, perm); err != nil {
		t.Fatal(err)
	}
}

// TempTree writes files as WriteTree does under a new temp dir, and
// returns the dir.
func TempTree(t testing.TB, files map[string]string, perm os.FileMode) string {
	t.Helper()
	root := t.TempDir()
	WriteTree(t, root, files, perm)
	return root
}

// Body reads and closes the body of resp, the answer to a request that
// returned err; it fails the test when the request or the read failed.
func Body(t testing.TB, resp *http.Response, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// Cluster is where the scenario runs: test/cluster's Harness.
type Cluster interface {
	Config(t testing.TB) *rest.Config
}

// PutConfigMap creates ConfigMap addon-operator in ns with data, or
// replaces its data.
func PutConfigMap(t testing.TB, c Cluster, ns string, data map[string]string) {
	t.Helper()
	ctx := context.Background()
	cms := kubernetes.NewForConfigOrDie(c.Config(t)).CoreV1().ConfigMaps(ns)
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

// ConfigMapData is a ConfigMap's data: nil when it does not exist, empty
// when it has none.
func ConfigMapData(t testing.TB, c Cluster, ns, name string) map[string]string {
	t.Helper()
	cm, err := kubernetes.NewForConfigOrDie(c.Config(t)).CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
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
