package moduleconfig_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// A Deckhouse ModuleConfig (the kube-dns example of its documentation),
// as written for Deckhouse.
const deckhouseManifest = `apiVersion: deckhouse.io/v1alpha1
kind: ModuleConfig
metadata:
  name: kube-dns
spec:
  version: 1
  enabled: true
  settings:
    upstreamNameservers:
    - 10.2.100.55
    - 10.2.200.55
    stubZones:
    - zone: directory.company.my
      upstreamNameservers: [192.168.121.55]
`

func TestParseDeckhouseManifest(t *testing.T) {
	_, err := moduleconfig.Parse("mc.yaml", []byte(deckhouseManifest))
	if err == nil || !strings.Contains(err.Error(), "mc.yaml: object 1: ModuleConfig \"kube-dns\": apiVersion: invalid ModuleConfig: deckhouse.io/v1alpha1 is Deckhouse's; change it to addon-operator.io/v1alpha1") {
		t.Fatalf("err %v, want the apiVersion named with the fix", err)
	}
	ours := strings.Replace(deckhouseManifest, "deckhouse.io/v1alpha1", moduleconfig.APIVersion, 1)
	m, err := moduleconfig.Parse("mc.yaml", []byte(ours))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ModuleConfigs) != 1 {
		t.Fatalf("%d objects, want 1", len(m.ModuleConfigs))
	}
	mc := m.ModuleConfigs[0]
	if mc.Metadata.Name != "kube-dns" || mc.Spec.Version != 1 || mc.Spec.Enabled == nil || !*mc.Spec.Enabled ||
		len(mc.Spec.Settings["upstreamNameservers"].([]any)) != 2 {
		t.Fatalf("parsed %+v", mc)
	}
}

// Every bad object of a file is named with its place, name and field; a
// ConfigMap beside ModuleConfigs is handed back; a List's items are read.
func TestParseErrors(t *testing.T) {
	file := `apiVersion: v1
kind: ConfigMap
metadata: {name: addon-operator}
data: {global: "a: 1"}
---
apiVersion: addon-operator.io/v1alpha1
kind: ModuleConfig
metadata: {name: web}
spec: {enable: true}
---
apiVersion: addon-operator.io/v1alpha1
kind: ModuleConfig
metadata: {name: Web_App}
spec: {}
---
apiVersion: addon-operator.io/v1alpha1
kind: ModuleConfig
metadata: {name: cache}
spec: {maintenance: Paused, version: 2}
---
apiVersion: addon-operator.io/v1
kind: ModuleConfig
metadata: {name: db}
---
{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "addon-operator.io/v1alpha1", "kind": "ModuleConfig", "metadata": {"name": "global"}, "spec": {"settings": {"a": 1}}},
 {"apiVersion": "addon-operator.io/v1alpha1", "kind": "ModuleConfig", "metadata": {"name": "web"}, "spec": {"version": -1}}]}
`
	m, err := moduleconfig.Parse("f.yaml", []byte(file))
	for _, want := range []string{
		`f.yaml: object 2: ModuleConfig "web": spec: invalid ModuleConfig: json: unknown field "enable"`,
		`f.yaml: object 3: ModuleConfig "Web_App": metadata.name: invalid ModuleConfig: want "global" or a module's name`,
		`f.yaml: object 4: ModuleConfig "cache": spec.maintenance: invalid ModuleConfig: "Paused", want NoResourceReconciliation or nothing`,
		`f.yaml: object 5: ModuleConfig "db": apiVersion: invalid ModuleConfig: "addon-operator.io/v1", want addon-operator.io/v1alpha1`,
		`f.yaml: object 7: ModuleConfig "web": spec.version: invalid ModuleConfig: -1, want 1 or more`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err lacks %q:\n%v", want, err)
		}
	}
	if !errors.Is(err, moduleconfig.ErrInvalid) {
		t.Fatalf("err %v is not ErrInvalid", err)
	}
	if len(m.Others) != 1 || m.Others[0].Kind != "ConfigMap" || m.Others[0].Index != 1 {
		t.Fatalf("others %+v, want the ConfigMap, object 1", m.Others)
	}
	if len(m.ModuleConfigs) != 1 || !m.ModuleConfigs[0].IsGlobal() || m.ModuleConfigs[0].SettingsVersion() != 1 {
		t.Fatalf("objects %+v, want global (no version: 1)", m.ModuleConfigs)
	}
}
