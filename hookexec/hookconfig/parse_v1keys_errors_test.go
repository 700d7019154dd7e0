package hookconfig

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// What shell-operator refuses in v1 is refused, with the whole message
// naming the field.
func TestParseV1KeyErrors(t *testing.T) {
	cases := []struct {
		name  string
		scope bindings.Scope
		in    string
		want  error
		text  string // the whole message
	}{
		{"mode", bindings.ScopeGlobal, kube1(`"mode":"v0"`), ErrUnknownField,
			"kubernetes[0].mode: unknown field: mode is not allowed in configVersion v1; remove it"},
		{"mode in the second binding", bindings.ScopeModule, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"},{"kind":"Secret","mode":"Incremental"}]}`, ErrUnknownField,
			"kubernetes[1].mode: unknown field: mode is not allowed in configVersion v1; remove it"},
		{"bad apiVersion", bindings.ScopeGlobal, kube1(`"apiVersion":"apps/v1/extra"`), ErrBadValue,
			`kubernetes[0].apiVersion: bad value: unexpected GroupVersion string: apps/v1/extra`},
		{"bad watchEvent", bindings.ScopeGlobal, kube1(`"watchEvent":["add"]`), ErrBadValue,
			`kubernetes[0].watchEvent[0]: bad value: "add": want Added, Modified or Deleted`},
		{"bad watchEvent next to executeHookOnEvent", bindings.ScopeGlobal, kube1(`"watchEvent":["Added","Created"],"executeHookOnEvent":["Added"]`), ErrBadValue,
			`kubernetes[0].watchEvent[1]: bad value: "Created": want Added, Modified or Deleted`},
		{"watchEvent not a list", bindings.ScopeGlobal, kube1(`"watchEvent":"Added"`), ErrSyntax,
			`kubernetes[0].watchEvent: invalid JSON/YAML: want []string, got JSON string`},
		{"resynchronizationPeriod not a string", bindings.ScopeGlobal, kube1(`"resynchronizationPeriod":10`), ErrSyntax,
			`kubernetes[0].resynchronizationPeriod: invalid JSON/YAML: want string, got JSON number`},
		{"metadata.name with nameSelector", bindings.ScopeGlobal,
			kube1(`"nameSelector":{"matchNames":["a"]},"fieldSelector":{"matchExpressions":[{"field":"status.phase","operator":"=","value":"x"},{"field":"metadata.name","operator":"=","value":"a"}]}`),
			ErrBadSelector, "kubernetes[0].fieldSelector.matchExpressions[1].field: bad selector: metadata.name cannot be used together with nameSelector.matchNames; use one of them"},
		{"bad field selector operator", bindings.ScopeGlobal, kube1(`"fieldSelector":{"matchExpressions":[{"field":"a","operator":"Like","value":"b"}]}`), ErrBadSelector,
			`kubernetes[0].fieldSelector.matchExpressions[0].operator: bad selector: "Like": want =, ==, Equals, != or NotEquals`},
		{"includeSnapshotsFrom unknown name", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"name":"a","kind":"Pod","includeSnapshotsFrom":["a","nope"]}]}`, ErrBadName,
			`kubernetes[0].includeSnapshotsFrom[1]: bad name: "nope" is not the name of a kubernetes binding of this hook`},
		{"includeSnapshotsFrom names a schedule", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"}],"schedule":[{"name":"s","crontab":"* * * * *","includeSnapshotsFrom":["s"]}]}`, ErrBadName,
			`schedule[0].includeSnapshotsFrom[0]: bad name: "s" is not the name of a kubernetes binding of this hook`},
		{"unknown kubernetes key", bindings.ScopeGlobal, kube1(`"resyncPeriod":"1m"`), ErrUnknownField,
			"kubernetes[0].resyncPeriod: unknown field: no such field"},
		{"unknown namespace key", bindings.ScopeGlobal, kube1(`"namespace":{"matchNames":["a"]}`), ErrUnknownField,
			"kubernetes[0].namespace.matchNames: unknown field: no such field"},
		{"unknown field expression key", bindings.ScopeGlobal, kube1(`"fieldSelector":{"matchExpressions":[{"field":"a","operator":"=","value":"b","values":["c"]}]}`), ErrUnknownField,
			"kubernetes[0].fieldSelector.matchExpressions[0].values: unknown field: no such field"},
		{"unknown label selector key", bindings.ScopeGlobal, kube1(`"labelSelector":{"matchLabels":{"a":"b"},"matchNames":["x"]}`), ErrUnknownField,
			"kubernetes[0].labelSelector.matchNames: unknown field: no such field"},
		{"unknown schedule key", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *"},{"crontab":"* * * * *","mode":"x"}]}`, ErrUnknownField,
			"schedule[1].mode: unknown field: no such field"},
		{"unknown settings key", bindings.ScopeGlobal, `{"configVersion":"v1","settings":{"enableSchedulesOnStartup":true}}`, ErrUnknownField,
			"settings.enableSchedulesOnStartup: unknown field: no such field"},
		{"unknown top-level key", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetesValidation":[]}`, ErrUnknownBinding,
			`kubernetesValidation: unknown binding: "kubernetesValidation" is no binding type`},
		{"webhook bindings not a list", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetesMutating":"yes"}`, ErrSyntax,
			`kubernetesMutating: invalid JSON/YAML: want an array of objects, got "yes"`},
		{"webhook bindings in v0", bindings.ScopeGlobal, `{"kubernetesValidating":[]}`, ErrUnknownBinding,
			"kubernetesValidating: unknown binding: kubernetesValidating needs configVersion: v1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), tc.scope)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if err.Error() != tc.text {
				t.Errorf("err  %q\nwant %q", err, tc.text)
			}
		})
	}
}
