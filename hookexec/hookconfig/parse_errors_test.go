package hookconfig

import (
	"errors"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// parseErrorCase is an output Parse refuses, with the sentinel the error
// wraps, the *FieldError's field and a part of the message.
type parseErrorCase struct {
	name  string
	scope bindings.Scope
	in    string
	want  error
	field string
	text  string
}

// refused asserts that Parse refuses tc.in as tc says, and returns the error.
func refused(t *testing.T, tc parseErrorCase) error {
	t.Helper()
	_, err := Parse([]byte(tc.in), tc.scope)
	if !errors.Is(err, tc.want) {
		t.Fatalf("err = %v, want %v", err, tc.want)
	}
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("err %v is not a *FieldError", err)
	}
	if fe.Field != tc.field {
		t.Errorf("field = %q, want %q (err %v)", fe.Field, tc.field, err)
	}
	if !strings.Contains(err.Error(), tc.text) {
		t.Errorf("err %q does not contain %q", err, tc.text)
	}
	return err
}

func TestParseErrors(t *testing.T) {
	cases := []parseErrorCase{
		{"empty", bindings.ScopeGlobal, "  \n", ErrSyntax, "", "empty output"},
		{"invalid json", bindings.ScopeGlobal, "{\n  \"onStartup\": 1,\n  \"schedule\": [\n}", ErrSyntax, "", "line 4 column 1"},
		{"invalid yaml", bindings.ScopeGlobal, "onStartup: [1\nx: :", ErrSyntax, "", "yaml"},
		{"not an object", bindings.ScopeGlobal, "[1,2]", ErrSyntax, "", "object of bindings"},
		{"plain text", bindings.ScopeGlobal, "hello world", ErrSyntax, "", "object of bindings"},
		{"bad version", bindings.ScopeGlobal, `{"configVersion":"v2"}`, ErrBadValue, "configVersion", "v2"},
		{"unknown binding v1", bindings.ScopeGlobal, `{"configVersion":"v1","onShutdown":1}`, ErrUnknownBinding, "onShutdown", "no binding type"},
		{"unknown binding v0", bindings.ScopeGlobal, `{"onShutdown":1}`, ErrUnknownBinding, "onShutdown", "no binding type"},
		{"kubernetes in v0", bindings.ScopeGlobal, `{"kubernetes":[]}`, ErrUnknownBinding, "kubernetes", "configVersion: v1"},
		{"onKubernetesEvent in v1", bindings.ScopeGlobal, `{"configVersion":"v1","onKubernetesEvent":[]}`, ErrUnknownBinding, "onKubernetesEvent", "use kubernetes"},
		{"beforeHelm in global", bindings.ScopeGlobal, `{"configVersion":"v1","beforeHelm":1}`, ErrWrongScope, "beforeHelm", "module hooks only"},
		{"afterHelm in global", bindings.ScopeGlobal, `{"afterHelm":1}`, ErrWrongScope, "afterHelm", "module hooks only"},
		{"beforeDeleteHelm in global", bindings.ScopeGlobal, `{"configVersion":"v1","beforeDeleteHelm":1}`, ErrWrongScope, "beforeDeleteHelm", "module hooks only"},
		{"beforeDeleteHelm in global v0", bindings.ScopeGlobal, `{"beforeDeleteHelm":1}`, ErrWrongScope, "beforeDeleteHelm", "module hooks only"},
		{"afterDeleteHelm in global", bindings.ScopeGlobal, `{"afterDeleteHelm":1}`, ErrWrongScope, "afterDeleteHelm", "module hooks only"},
		{"beforeAll in module", bindings.ScopeModule, `{"configVersion":"v1","beforeAll":1}`, ErrWrongScope, "beforeAll", "global hooks only"},
		{"afterAll in module", bindings.ScopeModule, `{"afterAll":1}`, ErrWrongScope, "afterAll", "global hooks only"},
		{"order not a number", bindings.ScopeGlobal, `{"onStartup":"first"}`, ErrBadValue, "onStartup", "number"},
		{"bad crontab", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * *"}]}`, ErrBadCrontab, "schedule[0].crontab", "* * *"},
		{"crontab 7 fields", bindings.ScopeGlobal, `{"schedule":[{"crontab":"* * * * * * *"}]}`, ErrBadCrontab, "schedule[0].crontab", ""},
		{"crontab out of range", bindings.ScopeGlobal, `{"schedule":[{"crontab":"61 * * * *"}]}`, ErrBadCrontab, "schedule[0].crontab", ""},
		{"empty crontab", bindings.ScopeGlobal, `{"schedule":[{"name":"x"}]}`, ErrBadCrontab, "schedule[0].crontab", `empty (binding "x")`},
		{"bad crontab of a named binding", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"name":"ok","crontab":"* * * * *"},{"name":"nightly","crontab":"0 3 * *"}]}`, ErrBadCrontab, "schedule[1].crontab", `"0 3 * *" (binding "nightly"): expected 5 to 6 fields`},
		{"crontab names a month 13", bindings.ScopeGlobal, `{"schedule":[{"crontab":"0 0 1 13 *"}]}`, ErrBadCrontab, "schedule[0].crontab", "0 0 1 13 *"},
		{"schedule not a list", bindings.ScopeGlobal, `{"schedule":"* * * * *"}`, ErrSyntax, "schedule", "array"},
		{"bad jqFilter v1", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","jqFilter":".metadata |"}]}`, ErrBadJqFilter, "kubernetes[0].jqFilter", ".metadata |"},
		{"bad jqFilter v0", bindings.ScopeGlobal, `{"onKubernetesEvent":[{"kind":"pod","jqFilter":"{{"}]}`, ErrBadJqFilter, "onKubernetesEvent[0].jqFilter", ""},
		{"jq undefined function", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","jqFilter":"nosuchfn(1)"}]}`, ErrBadJqFilter, "kubernetes[0].jqFilter", "nosuchfn"},
		{"duplicate kubernetes names", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"name":"a","kind":"Pod"},{"name":"a","kind":"Secret"}]}`, ErrDuplicateName, "kubernetes[1].name", `"a"`},
		{"duplicate across types", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"name":"a","kind":"Pod"}],"schedule":[{"name":"a","crontab":"* * * * *"}]}`, ErrDuplicateName, "schedule[0].name", `"a"`},
		{"duplicate schedule names", bindings.ScopeGlobal, `{"schedule":[{"name":"x","crontab":"* * * * *"},{"name":"x","crontab":"* * * * *"}]}`, ErrDuplicateName, "schedule[1].name", ""},
		{"snapshot of unknown binding", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *","includeSnapshotsFrom":["nope"]}]}`, ErrBadName, "schedule[0].includeSnapshotsFrom[0]", "nope"},
		{"bad queue", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *","queue":"my queue"}]}`, ErrBadName, "schedule[0].queue", "my queue"},
		{"bad group", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","group":"a\"b"}]}`, ErrBadName, "kubernetes[0].group", ""},
		{"bad queue kubernetes", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","queue":"tab\tq"}]}`, ErrBadName, "kubernetes[0].queue", ""},
		{"bad label selector", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","labelSelector":{"matchExpressions":[{"key":"a","operator":"Near"}]}}]}`, ErrBadSelector, "kubernetes[0].labelSelector", "Near"},
		{"bad label value", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","labelSelector":{"matchLabels":{"a":"b c"}}}]}`, ErrBadSelector, "kubernetes[0].labelSelector", ""},
		{"bad v0 selector", bindings.ScopeGlobal, `{"onKubernetesEvent":[{"kind":"pod","selector":{"matchExpressions":[{"key":"tier","operation":"In"}]}}]}`, ErrBadSelector, "onKubernetesEvent[0].selector", ""},
		{"bad field selector op", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","fieldSelector":{"matchExpressions":[{"field":"a","operator":"In","value":"b"}]}}]}`, ErrBadSelector, "kubernetes[0].fieldSelector.matchExpressions[0].operator", "In"},
		{"empty field", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","fieldSelector":{"matchExpressions":[{"operator":"=","value":"b"}]}}]}`, ErrBadSelector, "kubernetes[0].fieldSelector.matchExpressions[0].field", ""},
		{"bad name selector", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","nameSelector":{"matchNames":[""]}}]}`, ErrBadSelector, "kubernetes[0].nameSelector.matchNames[0]", ""},
		{"bad namespace selector", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","namespace":{"labelSelector":{"matchLabels":{"-":"x"}}}}]}`, ErrBadSelector, "kubernetes[0].namespace.labelSelector", ""},
		{"bad v0 namespace names", bindings.ScopeGlobal, `{"onKubernetesEvent":[{"kind":"pod","namespaceSelector":{"matchNames":["a b"]}}]}`, ErrBadSelector, "onKubernetesEvent[0].namespaceSelector.matchNames[0]", ""},
		{"missing kind", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"name":"x"}]}`, ErrBadValue, "kubernetes[0].kind", "required"},
		{"unknown v0 kind", bindings.ScopeGlobal, `{"onKubernetesEvent":[{"kind":"widget"}]}`, ErrBadValue, "onKubernetesEvent[0].kind", "widget"},
		{"bad v1 event", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","executeHookOnEvent":["add"]}]}`, ErrBadValue, "kubernetes[0].executeHookOnEvent[0]", "Added"},
		{"bad v0 event", bindings.ScopeGlobal, `{"onKubernetesEvent":[{"kind":"pod","event":["create"]}]}`, ErrBadValue, "onKubernetesEvent[0].event[0]", "create"},
		{"unknown v1 field", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","labelSelecter":{}}]}`, ErrUnknownField, "kubernetes[0].labelSelecter", ""},
		{"unknown v1 schedule field", bindings.ScopeGlobal, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *","cron":"x"}]}`, ErrUnknownField, "schedule[0].cron", ""},
		{"wrong type", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","queue":5}]}`, ErrSyntax, "kubernetes[0].queue", "string"},
		{"bad bool", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","allowFailure":"maybe"}]}`, ErrSyntax, "kubernetes[0].allowFailure", "maybe"},
		{"bad settings interval", bindings.ScopeGlobal, `{"configVersion":"v1","settings":{"executionMinInterval":"soon"}}`, ErrBadValue, "settings.executionMinInterval", "soon"},
		{"negative burst", bindings.ScopeGlobal, `{"configVersion":"v1","settings":{"executionBurst":-1}}`, ErrBadValue, "settings.executionBurst", "negative"},
		{"settings in v0", bindings.ScopeGlobal, `{"settings":{}}`, ErrUnknownBinding, "settings", "configVersion: v1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { refused(t, tc) })
	}
}
