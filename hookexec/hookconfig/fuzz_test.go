package hookconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// sentinels are the errors every Parse error wraps one of.
var sentinels = []error{ErrSyntax, ErrUnknownBinding, ErrUnknownField, ErrWrongScope, ErrBadCrontab,
	ErrBadJqFilter, ErrBadSelector, ErrDuplicateName, ErrBadName, ErrBadValue}

// FuzzParse: a hook's --config output, v0 or v1, parses into a
// configuration or a *FieldError wrapping one of the sentinels; parsing
// is the same twice, and a JSON output parses the same as its YAML form.
// More seeds, the spec's examples among them, are in testdata/fuzz.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"configVersion":"v1","onStartup":10}`,
		"configVersion: v1\nbeforeHelm: 1\nafterHelm: 2\nafterDeleteHelm: 3\n",
		`{"configVersion":"v1","schedule":[{"name":"every-minute","crontab":"*/1 * * * *","queue":"q","group":"g"}]}`,
		`{"configVersion":"v1","kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod","executeHookOnEvent":["Added","Modified"],` +
			`"namespace":{"nameSelector":{"matchNames":["default"]}},"labelSelector":{"matchLabels":{"app":"x"}},"jqFilter":".metadata.labels"}]}`,
		`{"onKubernetesEvent":[{"kind":"pod","event":["update"],"selector":{"matchLabels":{"a":"b"}},"namespaceSelector":{"any":true},"jqFilter":".metadata.labels"}]}`,
		`{"schedule":[{"name":"incremental","crontab":"* 2 */3 * * *","allowFailure":true}],"beforeHelm":5}`,
		`{"configVersion":"v1","kubernetesValidating":[{"name":"policy.example.com","rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods"],"scope":"Namespaced"}]}]}`,
		`{"configVersion":"v2"}`,
		"\t{\"configVersion\": \"v1\"}",
		"- a\n- b\n",
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, module bool) {
		scope := bindings.ScopeGlobal
		if module {
			scope = bindings.ScopeModule
		}
		cfg, err := Parse(data, scope)
		checkParseError(t, err)
		again, err2 := Parse(data, scope)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(again, cfg) {
			t.Fatalf("parsed twice: %+v (%v), then %+v (%v)", cfg, err, again, err2)
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
			return
		}
		asYAML, yerr := yaml.JSONToYAML(trimmed)
		if yerr != nil {
			return
		}
		fromYAML, err3 := Parse(asYAML, scope)
		if (err == nil) != (err3 == nil) || err == nil && !reflect.DeepEqual(fromYAML, cfg) {
			t.Fatalf("JSON %s gives %+v (%v), its YAML\n%s gives %+v (%v)", trimmed, cfg, err, asYAML, fromYAML, err3)
		}
	})
}

// checkParseError fails unless err is nil or a *FieldError wrapping a
// sentinel.
func checkParseError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %q is no *FieldError", err)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %q wraps no sentinel", err)
}
