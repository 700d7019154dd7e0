package chartrun_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/chartrun/crds"
)

const skippedCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.skip.crds.example.com
spec:
  group: skip.crds.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
`

// Helm never installs a module's crds/ (the operator applies them before
// the module's first run): the release is installed, the CRD is not
// created, and the crds/ files are not in the checksum.
func TestUpgradeSkipsCRDs(t *testing.T) {
	f := newFixture(t, 1)
	with := writeModule(t, map[string]string{"Chart.yaml": "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"templates/cm0.yaml": strings.ReplaceAll(cmTemplate, "%d", "0"), "crds/gadgets.yaml": skippedCRD})
	vals := map[string]any{"demo": map[string]any{"value": "x"}}
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: with, Values: vals})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Upgraded {
		t.Fatalf("result %+v, want an install", res)
	}
	client := dynamic.NewForConfigOrDie(kube.Config(t))
	_, err = client.Resource(crds.Resource).Get(context.Background(), "gadgets.skip.crds.example.com", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("CRD of crds/: %v, want NotFound (helm must skip it)", err)
	}
	res, err = f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir, Values: vals})
	if err != nil {
		t.Fatal(err)
	}
	if res.Upgraded {
		t.Errorf("the same chart without crds/ upgraded (%s): crds/ must not count in the checksum", res.Reason)
	}
}
