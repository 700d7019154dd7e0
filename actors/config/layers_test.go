package config

import (
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

// webTargets holds module "web" (settings at version 2: v2 renames count
// to replicas, which must be >= 1); other names have no module dir.
func webTargets(t *testing.T) map[string]moduleconfig.Target {
	return webTargetsOf(t, "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n")
}

// webTargetsOf holds module "web" with the v2 conversion given.
func webTargetsOf(t *testing.T, v2 string) map[string]moduleconfig.Target {
	return webTargetsWith(t, v2, "type: object\nproperties:\n  replicas: {type: integer, minimum: 1}\n")
}

// webTargetsWith holds module "web" with the v2 conversion and the config
// schema given.
func webTargetsWith(t *testing.T, v2, schema string) map[string]moduleconfig.Target {
	t.Helper()
	root := scenario.TempTree(t, map[string]string{
		"010-web/values.yaml":                 "web: {}\n",
		"010-web/openapi/conversions/v2.yaml": v2,
		"010-web/openapi/config-values.yaml":  schema,
	}, 0o644)
	defs, errs := layout.Scan([]string{root}, values.Sections{})
	if len(errs) > 0 || len(defs) != 1 {
		t.Fatalf("scan: %v", errs)
	}
	return map[string]moduleconfig.Target{"web": moduleconfig.ModuleTarget(defs[0])}
}

func webObject(gen int64, version int, enabled *bool, settings map[string]any) moduleconfig.ModuleConfig {
	return moduleconfig.ModuleConfig{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind, Metadata: moduleconfig.Metadata{Name: "web", Generation: gen},
		Spec: moduleconfig.Spec{Version: version, Enabled: enabled, Settings: settings}}
}

// TestLayersLay walks one object through its generations: each step's
// objects laid over the same ConfigMap data, with what the data, the
// status and the metrics must then say.
func TestLayersLay(t *testing.T) {
	target := webTargets(t)
	off := false
	cm := map[string]string{"web": "count: 5\n", "webEnabled": "true", "other": "x: 1\n"}
	converted := map[string]string{"web": "replicas: 5\n", "webEnabled": "true", "other": "x: 1\n"}
	steps := []struct {
		name      string
		objects   []moduleconfig.ModuleConfig
		data      map[string]string
		valid     string // the Valid condition's status
		applied   int64  // the Applied condition's observedGeneration
		message   string
		obsolete  bool
		invalid   bool // newly counted
		hiddenKey string
	}{
		{name: "no object: the ConfigMap's section taken as version 1", data: converted},
		{name: "v2 object wins over the section and the enabled key",
			objects: []moduleconfig.ModuleConfig{webObject(1, 2, nil, map[string]any{"replicas": 2})},
			data:    map[string]string{"web": "replicas: 2\n", "other": "x: 1\n"}, valid: "True", applied: 1, message: "applied",
			hiddenKey: `ConfigMap key "webEnabled" is ignored`},
		{name: "v1 object converted, obsolete",
			objects: []moduleconfig.ModuleConfig{webObject(2, 1, nil, map[string]any{"count": 3})},
			data:    map[string]string{"web": "replicas: 3\n", "other": "x: 1\n"}, valid: "True", applied: 2,
			message: "obsolete: spec.version 1 is converted to 2", obsolete: true},
		{name: "invalid generation: the last good one stays, counted once",
			objects: []moduleconfig.ModuleConfig{webObject(3, 2, nil, map[string]any{"replicas": 0})},
			data:    map[string]string{"web": "replicas: 3\n", "other": "x: 1\n"}, valid: "False", applied: 2,
			message: "not valid: ", invalid: true},
		{name: "the same invalid generation again: not counted again",
			objects: []moduleconfig.ModuleConfig{webObject(3, 2, nil, map[string]any{"replicas": 0})},
			data:    map[string]string{"web": "replicas: 3\n", "other": "x: 1\n"}, valid: "False", applied: 2,
			message: "the module keeps the settings of generation 2"},
		{name: "disabled by the object",
			objects: []moduleconfig.ModuleConfig{webObject(4, 2, &off, nil)},
			data:    map[string]string{"webEnabled": "false", "other": "x: 1\n"}, valid: "True", applied: 4, message: "applied"},
		{name: "deleted: back to the ConfigMap", data: converted},
	}
	var l layers
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, s := range steps {
		res, err := l.Lay(cm, s.objects, target, nil, now)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if !equalData(res.Data, s.data) {
			t.Errorf("%s: data %v, want %v", s.name, res.Data, s.data)
		}
		if s.hiddenKey != "" && !strings.Contains(strings.Join(res.Hidden, "\n"), s.hiddenKey) {
			t.Errorf("%s: hidden %v, want %q", s.name, res.Hidden, s.hiddenKey)
		}
		if (len(res.Obsolete) > 0) != s.obsolete || (len(res.NewlyInvalid) > 0) != s.invalid {
			t.Errorf("%s: obsolete %v, newly invalid %v", s.name, res.Obsolete, res.NewlyInvalid)
		}
		st, ok := res.Status["web"]
		if s.valid == "" {
			if ok {
				t.Errorf("%s: status %+v for no object", s.name, st)
			}
			continue
		}
		valid, applied := st.Conditions[0], st.Conditions[1]
		if string(valid.Status) != s.valid || applied.ObservedGeneration != s.applied || !strings.Contains(st.Message, s.message) {
			t.Errorf("%s: Valid %s, Applied generation %d, message %q; want %s, %d, %q",
				s.name, valid.Status, applied.ObservedGeneration, st.Message, s.valid, s.applied, s.message)
		}
	}
}

func equalData(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestLayersUnknownModule: an object of no module dir of this operator's
// is another operator's: left out, no status.
func TestLayersUnknownModule(t *testing.T) {
	var l layers
	mc := moduleconfig.ModuleConfig{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind, Metadata: moduleconfig.Metadata{Name: "ghost", Generation: 1},
		Spec: moduleconfig.Spec{Settings: map[string]any{"a": 1}}}
	res, err := l.Lay(nil, []moduleconfig.ModuleConfig{mc}, webTargets(t), nil, time.Time{})
	if err != nil || len(res.Data) != 0 || len(res.Status) != 0 || len(res.Foreign) != 1 {
		t.Fatalf("data %v, status %v, foreign %v, err %v", res.Data, res.Status, res.Foreign, err)
	}
}

// TestLayersSectionNotConverting: a ConfigMap section that its module's
// conversions refuse is an error naming the key.
func TestLayersSectionNotConverting(t *testing.T) {
	targets := webTargetsOf(t, "version: 2\nconversions:\n  - .replicas = (.count + 1) | del(.count)\n")
	var l layers
	res, err := l.Lay(map[string]string{"web": "count: 1\n"}, nil, targets, nil, time.Time{})
	if err != nil || res.Data["web"] != "replicas: 2\n" {
		t.Fatalf("converted: %v, %v", res.Data, err)
	}
	_, err = l.Lay(map[string]string{"web": "count: one\n"}, nil, targets, nil, time.Time{})
	if err == nil || !strings.Contains(err.Error(), `ConfigMap key "web"`) {
		t.Fatalf("a section that does not convert: %v, want an error naming the key", err)
	}
}
