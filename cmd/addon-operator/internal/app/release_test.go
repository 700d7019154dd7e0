package app_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// Auto-healing: an object of a release deleted by someone else is found by
// the periodic check and restored by a module run.
func TestDeletedReleaseObjectIsRestored(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "alphaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":        "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata:\n  a: b\n",
	})
	s := startApp(t, root)
	s.waitReady(t)
	before := moduleTasks(s.app.Board, "alpha")
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	if err := client.CoreV1().ConfigMaps(s.ns).Delete(context.Background(), "alpha", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "a module run after the deletion", func(b *board.Board) bool { return moduleTasks(b, "alpha") > before })
	if got := scenario.ConfigMapData(t, kube, s.ns, "alpha")["a"]; got != "b" {
		t.Fatalf("object not restored: %q", got)
	}
}

// A module with templates/ but no Chart.yaml is still installed.
func TestModuleWithTemplatesButNoChartYaml(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                "bareEnabled: true\n",
		"modules/001-bare/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bare\ndata:\n  a: b\n",
	})
	s := startApp(t, root)
	s.waitReady(t)
	if got := scenario.ConfigMapData(t, kube, s.ns, "bare")["a"]; got != "b" {
		t.Fatalf("bare module not installed: %q", got)
	}
}
