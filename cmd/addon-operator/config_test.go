package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
	"github.com/addon-actors/addon-operator/moduleconfig"
)

const exportConfigMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: addon-operator}
data:
  global: "clusterName: prod"
  web: "replicas: 2"
  webEnabled: "true"
  cache: "false"
  queue: "[a, b]"
`

// `config export -f` prints global and one ModuleConfig per module the
// ConfigMap configures, which read back as ModuleConfigs; what cannot be
// exported is a warning on stderr.
func TestConfigExportFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(file, []byte(exportConfigMap), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	none := func(string) (string, bool) { return "", false }
	if code := configCLI(context.Background(), []string{"export", "-f", file}, none, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	m, err := moduleconfig.Parse("stdout", stdout.Bytes())
	if err != nil || len(m.ModuleConfigs) != 3 {
		t.Fatalf("%v; %d objects:\n%s", err, len(m.ModuleConfigs), stdout.String())
	}
	web := m.ModuleConfigs[2]
	if web.Metadata.Name != "web" || *web.Spec.Enabled != true || web.Spec.Settings["replicas"] != float64(2) || web.Spec.Version != 1 {
		t.Fatalf("web: %+v", web)
	}
	if cache := m.ModuleConfigs[1]; cache.Metadata.Name != "cache" || *cache.Spec.Enabled || cache.Spec.Settings != nil {
		t.Fatalf("cache: %+v", cache)
	}
	if !strings.Contains(stderr.String(), `warning: ConfigMap key "queue": not exported: its section is a list`) {
		t.Fatalf("stderr %q", stderr.String())
	}
	for _, args := range [][]string{{"import"}, {"export", "extra"}, {"export", "-f", file + ".missing"}} {
		stderr.Reset()
		if code := configCLI(context.Background(), args, none, &stdout, &stderr); code == 0 {
			t.Errorf("config %v: exit 0, want an error", args)
		}
	}
}

// `plan -f` takes ModuleConfigs alone (laid over the live ConfigMap), or
// beside a ConfigMap; a second ConfigMap or another kind is refused.
func TestReadPlanFile(t *testing.T) {
	mc := "apiVersion: addon-operator.io/v1alpha1\nkind: ModuleConfig\nmetadata: {name: web}\nspec: {enabled: false}\n"
	tests := []struct {
		name, text string
		data       map[string]string
		objects    int
		err        string
	}{
		{name: "ModuleConfigs alone", text: mc, objects: 1},
		{name: "with a ConfigMap", text: exportConfigMap + "---\n" + mc, objects: 1,
			data: map[string]string{"global": "clusterName: prod", "web": "replicas: 2", "webEnabled": "true", "cache": "false", "queue": "[a, b]"}},
		{name: "two ConfigMaps", text: exportConfigMap + "---\n" + exportConfigMap, err: `kind "ConfigMap": want a ConfigMap manifest and/or ModuleConfigs (object 2)`},
		{name: "a bad ModuleConfig", text: strings.Replace(mc, "enabled", "enable", 1), err: `object 1: ModuleConfig "web": spec: invalid ModuleConfig`},
		{name: "nothing", text: "# empty\n", err: "want a ConfigMap or ModuleConfig manifest"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "f.yaml")
			if err := os.WriteFile(file, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			var req whatif.Request
			err := readPlanFile(file, &req)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(req.ModuleConfigs) != tc.objects || len(req.Data) != len(tc.data) {
				t.Fatalf("%v; request %+v", err, req)
			}
			for k, v := range tc.data {
				if req.Data[k] != v {
					t.Errorf("data %q = %q, want %q", k, req.Data[k], v)
				}
			}
		})
	}
}
