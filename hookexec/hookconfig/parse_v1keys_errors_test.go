package hookconfig

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// What shell-operator refuses in v1 is refused, with the whole message
// naming the field.
func TestParseV1KeyErrors(t *testing.T) {
	cases := []parseErrorCase{
		whole("mode", bindings.ScopeGlobal, kube1(`"mode":"v0"`), ErrUnknownField,
			"kubernetes[0].mode: unknown field: mode is not allowed in configVersion v1; remove it"),
		whole("mode in the second binding", bindings.ScopeModule, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"},{"kind":"Secret","mode":"Incremental"}]}`, ErrUnknownField,
			"kubernetes[1].mode: unknown field: mode is not allowed in configVersion v1; remove it"),
		whole("bad apiVersion", bindings.ScopeGlobal, kube1(`"apiVersion":"apps/v1/extra"`), ErrBadValue,
			`kubernetes[0].apiVersion: bad value: unexpected GroupVersion string: apps/v1/extra`),
		whole("bad watchEvent", bindings.ScopeGlobal, kube1(`"watchEvent":["add"]`), ErrBadValue,
			`kubernetes[0].watchEvent[0]: bad value: "add": want Added, Modified or Deleted`),
		whole("bad watchEvent next to executeHookOnEvent", bindings.ScopeGlobal, kube1(`"watchEvent":["Added","Created"],"executeHookOnEvent":["Added"]`), ErrBadValue,
			`kubernetes[0].watchEvent[1]: bad value: "Created": want Added, Modified or Deleted`),
		whole("watchEvent not a list", bindings.ScopeGlobal, kube1(`"watchEvent":"Added"`), ErrSyntax,
			`kubernetes[0].watchEvent: invalid JSON/YAML: want []string, got JSON string`),
		whole("resynchronizationPeriod not a string", bindings.ScopeGlobal, kube1(`"resynchronizationPeriod":10`), ErrSyntax,
			`kubernetes[0].resynchronizationPeriod: invalid JSON/YAML: want string, got JSON number`),
		whole("metadata.name with nameSelector", bindings.ScopeGlobal,
			kube1(`"nameSelector":{"matchNames":["a"]},"fieldSelector":{"matchExpressions":[{"field":"status.phase","operator":"=","value":"x"},{"field":"metadata.name","operator":"=","value":"a"}]}`),
			ErrBadSelector, "kubernetes[0].fieldSelector.matchExpressions[1].field: bad selector: metadata.name cannot be used together with nameSelector.matchNames; use one of them"),
		whole("bad field selector operator", bindings.ScopeGlobal, kube1(`"fieldSelector":{"matchExpressions":[{"field":"a","operator":"Like","value":"b"}]}`), ErrBadSelector,
			`kubernetes[0].fieldSelector.matchExpressions[0].operator: bad selector: "Like": want =, ==, Equals, != or NotEquals`),
		whole("includeSnapshotsFrom unknown name", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"name":"a","kind":"Pod","includeSnapshotsFrom":["a","nope"]}]}`, ErrBadName,
			`kubernetes[0].includeSnapshotsFrom[1]: bad name: "nope" is not the name of a kubernetes binding of this hook`),
		whole("includeSnapshotsFrom names a schedule", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"}],"schedule":[{"name":"s","crontab":"* * * * *","includeSnapshotsFrom":["s"]}]}`, ErrBadName,
			`schedule[0].includeSnapshotsFrom[0]: bad name: "s" is not the name of a kubernetes binding of this hook`),
		whole("unknown kubernetes key", bindings.ScopeGlobal, kube1(`"resyncPeriod":"1m"`), ErrUnknownField,
			"kubernetes[0].resyncPeriod: unknown field: no such field"),
		whole("unknown namespace key", bindings.ScopeGlobal, kube1(`"namespace":{"matchNames":["a"]}`), ErrUnknownField,
			"kubernetes[0].namespace.matchNames: unknown field: no such field"),
		whole("unknown field expression key", bindings.ScopeGlobal, kube1(`"fieldSelector":{"matchExpressions":[{"field":"a","operator":"=","value":"b","values":["c"]}]}`), ErrUnknownField,
			"kubernetes[0].fieldSelector.matchExpressions[0].values: unknown field: no such field"),
		whole("unknown label selector key", bindings.ScopeGlobal, kube1(`"labelSelector":{"matchLabels":{"a":"b"},"matchNames":["x"]}`), ErrUnknownField,
			"kubernetes[0].labelSelector.matchNames: unknown field: no such field"),
		whole("unknown schedule key", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *"},{"crontab":"* * * * *","mode":"x"}]}`, ErrUnknownField,
			"schedule[1].mode: unknown field: no such field"),
		whole("unknown settings key", bindings.ScopeGlobal, `{"configVersion":"v1","settings":{"enableSchedulesOnStartup":true}}`, ErrUnknownField,
			"settings.enableSchedulesOnStartup: unknown field: no such field"),
		whole("unknown top-level key", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetesValidation":[]}`, ErrUnknownBinding,
			`kubernetesValidation: unknown binding: "kubernetesValidation" is no binding type`),
		whole("webhook bindings not a list", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetesMutating":"yes"}`, ErrSyntax,
			`kubernetesMutating: invalid JSON/YAML: want an array of objects, got "yes"`),
		whole("webhook bindings in v0", bindings.ScopeGlobal, `{"kubernetesValidating":[]}`, ErrUnknownBinding,
			"kubernetesValidating: unknown binding: kubernetesValidating needs configVersion: v1"),
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := refused(t, tc); err.Error() != tc.text {
				t.Errorf("err  %q\nwant %q", err, tc.text)
			}
		})
	}
}

// whole is a case whose text is the whole message, the field its first part.
func whole(name string, scope bindings.Scope, in string, want error, message string) parseErrorCase {
	field, _, _ := strings.Cut(message, ": ")
	return parseErrorCase{name: name, scope: scope, in: in, want: want, field: field, text: message}
}
