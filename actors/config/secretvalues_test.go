package config

import (
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/mask"
)

// TestLayersSettingsFrom: a Secret's value is laid into the module's
// section at its path; a changed value changes the section; a missing key
// makes the object not valid (naming the Secret and the key, never the
// value), counted once, and the module keeps the last good section.
func TestLayersSettingsFrom(t *testing.T) {
	targets := tokenTargets(t)
	mc := webObject(1, 2, nil, map[string]any{"replicas": 2})
	mc.Spec.SettingsFrom = []moduleconfig.SettingFrom{{SecretKeyRef: moduleconfig.SecretKeyRef{Name: "web-creds", Key: "token"}, Path: "auth.token"}}
	secret := func(data map[string]string) secretValues {
		w := &secretWatch{read: true, exists: data != nil, data: map[string][]byte{}}
		for k, v := range data {
			w.data[k] = []byte(v)
		}
		return secretValues{"web-creds": w}
	}
	steps := []struct {
		name    string
		secrets secretValues
		gen     int64
		section string
		valid   string
		message string
		invalid bool
	}{
		{"value set at its path", secret(map[string]string{"token": "first-value-123"}), 1, "auth:\n  token: first-value-123\nreplicas: 2\n", "True", "applied", false},
		{"the Secret changed", secret(map[string]string{"token": "second-value-456"}), 1, "auth:\n  token: second-value-456\nreplicas: 2\n", "True", "applied", false},
		{"the key gone: last good kept", secret(map[string]string{"other": "second-value-456"}), 2, "auth:\n  token: second-value-456\nreplicas: 2\n", "False",
			`spec.settingsFrom[0]: Secret "web-creds" key "token": not found: the Secret has no key "token"`, true},
		{"the Secret gone", secret(nil), 2, "auth:\n  token: second-value-456\nreplicas: 2\n", "False",
			`Secret "web-creds" key "token": not found: no such Secret in the operator's namespace`, false},
	}
	var l layers
	for _, s := range steps {
		mc.Metadata.Generation = s.gen
		res, err := l.Lay(map[string]string{"web": "count: 5\n"}, []moduleconfig.ModuleConfig{mc}, targets, s.secrets, time.Time{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		st := res.Status["web"]
		if res.Data["web"] != s.section || string(st.Conditions[0].Status) != s.valid || !strings.Contains(st.Message, s.message) ||
			(len(res.NewlyInvalid) > 0) != s.invalid {
			t.Errorf("%s: section %q, Valid %s, message %q, newly invalid %v", s.name, res.Data["web"], st.Conditions[0].Status, st.Message, res.NewlyInvalid)
		}
		if strings.Contains(st.Message, "value-") {
			t.Errorf("%s: the status shows a value: %q", s.name, st.Message)
		}
	}
	if got := moduleconfig.SecretPaths(l.accepted["web"].Spec.SettingsFrom); len(got) != 1 || got[0].String() != "auth.token" {
		t.Fatalf("secret paths of the accepted object: %v", got)
	}
}

// tokenTargets holds module "web" whose settings are replicas and
// auth.token, at version 2 (as webTargets).
func tokenTargets(t *testing.T) map[string]moduleconfig.Target {
	return webTargetsWith(t, "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n",
		"type: object\nproperties:\n  replicas: {type: integer, minimum: 1}\n  auth:\n    type: object\n    properties:\n      token: {type: string}\n")
}

// TestMaskedStatus: a value that a schema error quotes is masked in the
// status written.
func TestMaskedStatus(t *testing.T) {
	st := moduleconfig.Status{Message: `not valid: "hunter2-long" is not an integer`,
		Conditions: []moduleconfig.Condition{{Type: moduleconfig.ConditionValid, Message: `"hunter2-long" is not an integer`}}}
	got := maskedStatus(st, mask.Secrets{"hunter2-long"})
	if strings.Contains(got.Message+got.Conditions[0].Message, "hunter2") || !strings.Contains(st.Conditions[0].Message, "hunter2") {
		t.Fatalf("masked %+v (the input must stay as it was: %+v)", got, st)
	}
}
