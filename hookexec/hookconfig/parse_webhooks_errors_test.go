package hookconfig

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// validating1 is a validating binding named a.example.com with fields.
func validating1(fields string) string {
	return webhook1("kubernetesValidating", `{"name":"a.example.com",`+fields+`}`)
}

// rule1 is a validating binding with one rule of fields; the rest valid.
func rule1(fields string) string {
	return validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"],` + fields + `}]`)
}

func conversion1(fields string) string {
	return webhook1("kubernetesCustomResourceConversion", `{"name":"c","crdName":"crontabs.stable.example.com",`+fields+`}`)
}

type webhookErrorCase struct {
	name string
	in   string
	want error
	text string // the whole message
}

func runWebhookErrorCases(t *testing.T, cases []webhookErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, scope := range []bindings.Scope{bindings.ScopeGlobal, bindings.ScopeModule} {
				_, err := Parse([]byte(tc.in), scope)
				if !errors.Is(err, tc.want) {
					t.Fatalf("%s hook: err = %v, want %v", scope, err, tc.want)
				}
				if err.Error() != tc.text {
					t.Errorf("%s hook: err  %q\nwant %q", scope, err, tc.text)
				}
			}
		})
	}
}

// shell-operator's schema for kubernetesValidating and kubernetesMutating.
func TestParseAdmissionSchemaErrors(t *testing.T) {
	runWebhookErrorCases(t, []webhookErrorCase{
		{"empty list", `{"configVersion":"v1","kubernetesValidating":[]}`, ErrBadValue,
			"kubernetesValidating: bad value: want at least one binding, got none"},
		{"empty mutating list", `{"configVersion":"v1","kubernetesMutating":[]}`, ErrBadValue,
			"kubernetesMutating: bad value: want at least one binding, got none"},
		{"no name", webhook1("kubernetesMutating", `{"timeoutSeconds":5}`), ErrBadValue,
			"kubernetesMutating[0].name: bad value: name is required"},
		{"unknown key", validating1(`"reinvocationPolicy":"IfNeeded"`), ErrUnknownField,
			"kubernetesValidating[0].reinvocationPolicy: unknown field: no such field"},
		{"unknown key of the second", webhook1("kubernetesMutating", `{"name":"m"},{"name":"n","objectSelector":{}}`), ErrUnknownField,
			"kubernetesMutating[1].objectSelector: unknown field: no such field"},
		{"nameSelector in namespace", validating1(`"namespace":{"labelSelector":{"matchLabels":{"a":"b"}},"nameSelector":{"matchNames":["x"]}}`), ErrUnknownField,
			"kubernetesValidating[0].namespace.nameSelector: unknown field: no such field"},
		{"unknown rule key", rule1(`"apiGroup":"apps"`), ErrUnknownField,
			"kubernetesValidating[0].rules[0].apiGroup: unknown field: no such field"},
		{"unknown label selector key", validating1(`"labelSelector":{"matchLabels":{"a":"b"},"matchFields":{}}`), ErrUnknownField,
			"kubernetesValidating[0].labelSelector.matchFields: unknown field: no such field"},
		{"includeSnapshotsFrom empty", validating1(`"includeSnapshotsFrom":[]`), ErrBadValue,
			"kubernetesValidating[0].includeSnapshotsFrom: bad value: want at least one binding name, got none"},
		{"bad group", validating1(`"group":"a b"`), ErrBadName,
			`kubernetesValidating[0].group: bad name: "a b": use printable ASCII without spaces or quotes`},
		{"failurePolicy", validating1(`"failurePolicy":"Never"`), ErrBadValue,
			`kubernetesValidating[0].failurePolicy: bad value: "Never": want Fail or Ignore`},
		{"sideEffects", webhook1("kubernetesMutating", `{"name":"m","sideEffects":"Some"}`), ErrBadValue,
			`kubernetesMutating[0].sideEffects: bad value: "Some": want None or NoneOnDryRun`},
		{"timeoutSeconds not an integer", validating1(`"timeoutSeconds":"10"`), ErrSyntax,
			"kubernetesValidating[0].timeoutSeconds: invalid JSON/YAML: want int32, got JSON string"},
		{"empty label selector", validating1(`"labelSelector":{}`), ErrBadSelector,
			"kubernetesValidating[0].labelSelector: bad selector: want matchLabels or matchExpressions, got neither"},
		{"bad label selector operator", webhook1("kubernetesMutating", `{"name":"m","labelSelector":{"matchExpressions":[{"key":"a","operator":"Near"}]}}`), ErrBadSelector,
			`kubernetesMutating[0].labelSelector: bad selector: "Near" is not a valid label selector operator`},
		{"namespace without labelSelector", validating1(`"namespace":{}`), ErrBadValue,
			"kubernetesValidating[0].namespace.labelSelector: bad value: labelSelector is required in namespace"},
		{"bad namespace selector", validating1(`"namespace":{"labelSelector":{"matchExpressions":[{"key":"env","operator":"In"}]}}`), ErrBadSelector,
			"kubernetesValidating[0].namespace.labelSelector: bad selector: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{"rules empty", validating1(`"rules":[]`), ErrBadValue,
			"kubernetesValidating[0].rules: bad value: want at least one rule, got none"},
		{"rule without apiGroups", validating1(`"rules":[{"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].apiGroups: bad value: apiGroups is required, with at least one item"},
		{"rule with no operations", webhook1("kubernetesMutating", `{"name":"m","rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":[]}]}`), ErrBadValue,
			"kubernetesMutating[0].rules[0].operations: bad value: operations is required, with at least one item"},
		{"bad operation", validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["PATCH"]}]`), ErrBadValue,
			`kubernetesValidating[0].rules[0].operations[0]: bad value: "PATCH": want CREATE, UPDATE, DELETE, CONNECT or *`},
		{"bad scope", rule1(`"scope":"Namespace"`), ErrBadValue,
			`kubernetesValidating[0].rules[0].scope: bad value: "Namespace": want Cluster, Namespaced or *`},
		{"matchConditions without expression", validating1(`"matchConditions":[{"name":"n"}]`), ErrBadValue,
			"kubernetesValidating[0].matchConditions[0].expression: bad value: expression is required"},
		{"matchConditions without name", webhook1("kubernetesMutating", `{"name":"m","matchConditions":[{"expression":"true"}]}`), ErrBadValue,
			"kubernetesMutating[0].matchConditions[0].name: bad value: name is required"},
		{"matchConditions item not an object", validating1(`"matchConditions":["x"]`), ErrSyntax,
			"kubernetesValidating[0].matchConditions[0]: invalid JSON/YAML: want hookconfig.matchConditionRaw, got JSON string"},
		{"includeSnapshotsFrom names no kubernetes binding", validating1(`"includeSnapshotsFrom":["pods","nope"]`), ErrBadName,
			`kubernetesValidating[0].includeSnapshotsFrom[1]: bad name: "nope" is not the name of a kubernetes binding of this hook`},
		{"includeSnapshotsFrom of a mutating binding", webhook1("kubernetesMutating", `{"name":"m"},{"name":"n","includeSnapshotsFrom":["m"]}`), ErrBadName,
			`kubernetesMutating[1].includeSnapshotsFrom[0]: bad name: "m" is not the name of a kubernetes binding of this hook`},
		{"in v0", `{"kubernetesMutating":[{"name":"m"}]}`, ErrUnknownBinding,
			"kubernetesMutating: unknown binding: kubernetesMutating needs configVersion: v1"},
	})
}

// The apiserver's checks of a ValidatingWebhookConfiguration, which
// shell-operator makes of a hook's validating bindings.
func TestParseValidatingChecks(t *testing.T) {
	resources := func(list string) string {
		return validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":` + list + `}]`)
	}
	runWebhookErrorCases(t, []webhookErrorCase{
		{"one-segment name", webhook1("kubernetesValidating", `{"name":"v"}`), ErrBadName,
			`kubernetesValidating[0].name: bad name: "v": want a fully-qualified name with at least three segments separated by dots, such as policy.example.com`},
		{"two-segment name", webhook1("kubernetesValidating", `{"name":"example.com"}`), ErrBadName,
			`kubernetesValidating[0].name: bad name: "example.com": want a fully-qualified name with at least three segments separated by dots, such as policy.example.com`},
		{"name no DNS subdomain", webhook1("kubernetesValidating", `{"name":"Policy_1.example.com"}`), ErrBadName,
			`kubernetesValidating[0].name: bad name: "Policy_1.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"duplicate names", webhook1("kubernetesValidating", `{"name":"a.example.com"},{"name":"b.example.com"},{"name":"a.example.com"}`), ErrDuplicateName,
			`kubernetesValidating[2].name: duplicate binding name: "a.example.com" is already the name of kubernetesValidating[0]`},
		{"timeoutSeconds 0", validating1(`"timeoutSeconds":0`), ErrBadValue,
			"kubernetesValidating[0].timeoutSeconds: bad value: 0: want 1 to 30 seconds"},
		{"timeoutSeconds 31", validating1(`"timeoutSeconds":31`), ErrBadValue,
			"kubernetesValidating[0].timeoutSeconds: bad value: 31: want 1 to 30 seconds"},
		{"'*' with other groups", validating1(`"rules":[{"apiGroups":["*","apps"],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].apiGroups: bad value: if '*' is present, must not specify other API groups"},
		{"'*' with other versions", validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1","*"],"resources":["pods"],"operations":["CREATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].apiVersions: bad value: if '*' is present, must not specify other API versions"},
		{"empty version", validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1",""],"resources":["pods"],"operations":["CREATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].apiVersions[1]: bad value: a version must not be empty"},
		{"'*' with other operations", validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["*","CREATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].operations: bad value: if '*' is present, must not specify other operations"},
		{"empty resource", resources(`["pods",""]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].resources[1]: bad value: a resource must not be empty"},
		{"'*/*' with others", resources(`["*/*","pods"]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].resources: bad value: if '*/*' is present, must not specify other resources"},
		{"'*' before a plain resource", resources(`["*","pods"]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].resources: bad value: if '*' is present, must not specify other resources without subresources"},
		{"x/* then x/y", resources(`["pods/*","pods/status"]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].resources[1]: bad value: if 'pods/*' is present, must not specify pods/status"},
		{"*/y then x/y", resources(`["*/status","pods/status"]`), ErrBadValue,
			"kubernetesValidating[0].rules[0].resources[1]: bad value: if '*/status' is present, must not specify pods/status"},
		{"in the second rule", validating1(`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]},` +
			`{"apiGroups":["apps"],"apiVersions":["v1"],"resources":["*/*","deployments"],"operations":["UPDATE"]}]`), ErrBadValue,
			"kubernetesValidating[0].rules[1].resources: bad value: if '*/*' is present, must not specify other resources"},
	})
}

// shell-operator's schema for kubernetesCustomResourceConversion, and the
// names and versions it needs.
func TestParseConversionErrors(t *testing.T) {
	rule := `"conversions":[{"fromVersion":"v1","toVersion":"v2"}]`
	runWebhookErrorCases(t, []webhookErrorCase{
		{"empty list", `{"configVersion":"v1","kubernetesCustomResourceConversion":[]}`, ErrBadValue,
			"kubernetesCustomResourceConversion: bad value: want at least one binding, got none"},
		{"no name", webhook1("kubernetesCustomResourceConversion", `{"crdName":"a.b",`+rule+`}`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].name: bad value: name is required"},
		{"no crdName", webhook1("kubernetesCustomResourceConversion", `{"name":"c",`+rule+`}`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].crdName: bad value: crdName is required"},
		{"crdName without a group", webhook1("kubernetesCustomResourceConversion", `{"name":"c","crdName":"crontabs",`+rule+`}`), ErrBadName,
			`kubernetesCustomResourceConversion[0].crdName: bad name: "crontabs" is no CustomResourceDefinition name (plural.group, such as crontabs.stable.example.com)`},
		{"no conversions", conversion1(`"group":"g"`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].conversions: bad value: conversions is required, with at least one {fromVersion, toVersion}"},
		{"empty conversions", conversion1(`"conversions":[]`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].conversions: bad value: conversions is required, with at least one {fromVersion, toVersion}"},
		{"no fromVersion", conversion1(`"conversions":[{"fromVersion":"v1","toVersion":"v2"},{"toVersion":"v3"}]`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].conversions[1].fromVersion: bad value: a version is required, such as v1 or stable.example.com/v1"},
		{"bad toVersion", conversion1(`"conversions":[{"fromVersion":"v1","toVersion":"a/b/c"}]`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].conversions[0].toVersion: bad value: unexpected GroupVersion string: a/b/c"},
		{"unknown key", conversion1(rule + `,"strategy":"Webhook"`), ErrUnknownField,
			"kubernetesCustomResourceConversion[0].strategy: unknown field: no such field"},
		{"unknown conversion key", conversion1(`"conversions":[{"fromVersion":"v1","toVersion":"v2","via":"v1beta1"}]`), ErrUnknownField,
			"kubernetesCustomResourceConversion[0].conversions[0].via: unknown field: no such field"},
		{"includeSnapshotsFrom empty", conversion1(rule + `,"includeSnapshotsFrom":[]`), ErrBadValue,
			"kubernetesCustomResourceConversion[0].includeSnapshotsFrom: bad value: want at least one binding name, got none"},
		{"includeSnapshotsFrom names no kubernetes binding", conversion1(rule + `,"includeSnapshotsFrom":["crontabs"]`), ErrBadName,
			`kubernetesCustomResourceConversion[0].includeSnapshotsFrom[0]: bad name: "crontabs" is not the name of a kubernetes binding of this hook`},
		{"bad group", conversion1(rule + `,"group":"\"g\""`), ErrBadName,
			`kubernetesCustomResourceConversion[0].group: bad name: "\"g\"": use printable ASCII without spaces or quotes`},
		{"in v0", `{"kubernetesCustomResourceConversion":[]}`, ErrUnknownBinding,
			"kubernetesCustomResourceConversion: unknown binding: kubernetesCustomResourceConversion needs configVersion: v1"},
	})
}
