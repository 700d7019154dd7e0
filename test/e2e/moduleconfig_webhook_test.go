package e2e_test

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// The operator serves the ModuleConfig webhook on loopback: kubectl apply
// of an invalid ModuleConfig is refused naming the field, a valid one at
// an obsolete version is stored with the warning printed.
func TestModuleConfigWebhook(t *testing.T) {
	ns := kube.Namespace(t)
	ensureModuleConfigCRD(t)
	module := "web-" + objectTag(ns) // ModuleConfigs are cluster-wide: a name of the test's own (no digit after a dash: it would not read back from its values key)
	root := tree(t, map[string]string{
		"modules/010-" + module + "/openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n",
		"modules/010-" + module + "/openapi/config-values.yaml": "type: object\nadditionalProperties: false\n" +
			"properties:\n  replicas: {type: integer, minimum: 1}\n",
	})
	deleteModuleConfigAtEnd(t, module)
	op := startOperator(t, root, ns, webhookEnv(t, ns)...)
	op.waitReady(t)
	invalid := moduleConfigManifest(module, 2, "replicas: 0")
	retryUntil(t, "kubectl apply of an invalid ModuleConfig refused", func() error {
		out, err := kubectlApplyManifest(t, invalid)
		if err == nil {
			return fmt.Errorf("applied: %s", out)
		}
		for _, want := range []string{`admission webhook "moduleconfigs.addon-operator.io" denied the request`, "spec.settings", "replicas: minimum"} {
			if !strings.Contains(out, want) {
				return fmt.Errorf("output %q, want %q in it", out, want)
			}
		}
		return nil
	})
	out, err := kubectlApplyManifest(t, moduleConfigManifest(module, 1, "count: 2"))
	if err != nil || !strings.Contains(out, "Warning: ") || !strings.Contains(out, "spec.version=1 is obsolete: the latest is 2") ||
		!strings.Contains(out, "moduleconfig.addon-operator.io/"+module+" created") {
		t.Fatalf("kubectl apply of a valid v1 ModuleConfig: %v\n%s\n%s", err, out, op.logText())
	}
}

func moduleConfigManifest(name string, version int, settings string) string {
	return fmt.Sprintf("apiVersion: %s\nkind: ModuleConfig\nmetadata:\n  name: %s\nspec:\n  version: %d\n  settings:\n    %s\n",
		moduleconfig.APIVersion, name, version, settings)
}

func kubectlApplyManifest(t *testing.T, manifest string) (string, error) {
	t.Helper()
	bins, err := cluster.EnsureBinaries(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bins.Kubectl, "--kubeconfig", kube.Kubeconfig(), "apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// ensureModuleConfigCRD creates the ModuleConfig CRD from the operator's
// own manifest when the cluster has none (it is left for the other
// tests), and waits until it is established.
func ensureModuleConfigCRD(t *testing.T) {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(moduleconfig.CRD(), &crd); err != nil {
		t.Fatal(err)
	}
	crds := apiextensionsclient.NewForConfigOrDie(kube.Config(t)).ApiextensionsV1().CustomResourceDefinitions()
	if _, err := crds.Create(context.Background(), &crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	retryUntil(t, "the ModuleConfig CRD established", func() error {
		got, err := crds.Get(context.Background(), crd.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return nil
			}
		}
		return fmt.Errorf("not established: %+v", got.Status.Conditions)
	})
}

func deleteModuleConfigAtEnd(t *testing.T, name string) {
	t.Helper()
	client := dynamic.NewForConfigOrDie(kube.Config(t))
	gvr := schema.GroupVersionResource{Group: moduleconfig.Group, Version: moduleconfig.Version, Resource: moduleconfig.Resource}
	t.Cleanup(func() { _ = client.Resource(gvr).Delete(context.Background(), name, metav1.DeleteOptions{}) })
}
