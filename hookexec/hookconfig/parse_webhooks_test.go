package hookconfig

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// webhook1 is a v1 configuration with one kubernetes binding "pods" (group
// g) and one binding under key made of item.
func webhook1(key, item string) string {
	return `{"configVersion":"v1","kubernetes":[{"name":"pods","kind":"Pod","group":"g"}],"` + key + `":[` + item + `]}`
}

func wantDeep(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s =\n%s\nwant\n%s", what, g, w)
	}
}

// Every key of an admission binding, as read into the model.
func TestParseAdmissionEveryKey(t *testing.T) {
	item := `{"name":"private-repo.example.com","includeSnapshotsFrom":["pods"],"group":"g",
		"labelSelector":{"matchLabels":{"app":"web"}},
		"namespace":{"labelSelector":{"matchExpressions":[{"key":"env","operator":"In","values":["prod"]}]}},
		"rules":[{"apiGroups":["","apps"],"apiVersions":["v1"],"resources":["pods","deployments/scale"],"operations":["CREATE","UPDATE"],"scope":"Namespaced"}],
		"failurePolicy":"Ignore","sideEffects":"NoneOnDryRun","timeoutSeconds":30,
		"matchConditions":[{"name":"not-system","expression":"!request.userInfo.username.startsWith('system:')"}]}`
	namespaced := "Namespaced"
	want := bindings.AdmissionBinding{
		Name:                 "private-repo.example.com",
		IncludeSnapshotsFrom: []string{"pods"},
		Group:                "g",
		ObjectSelector:       &bindings.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		NamespaceSelector: &bindings.LabelSelector{MatchExpressions: []bindings.LabelSelectorRequirement{
			{Key: "env", Operator: "In", Values: []string{"prod"}}}},
		Rules: []bindings.Rule{{
			Operations: []string{"CREATE", "UPDATE"},
			APIGroups:  []string{"", "apps"}, APIVersions: []string{"v1"},
			Resources: []string{"pods", "deployments/scale"}, Scope: &namespaced,
		}},
		FailurePolicy:   "Ignore",
		SideEffects:     "NoneOnDryRun",
		TimeoutSeconds:  30,
		MatchConditions: []bindings.MatchCondition{{Name: "not-system", Expression: "!request.userInfo.username.startsWith('system:')"}},
	}
	runParseCases(t, []parseCase{
		{"validating", bindings.ScopeGlobal, webhook1("kubernetesValidating", item), func(t *testing.T, c *bindings.Config) {
			wantDeep(t, "validating", c.Validating, []bindings.AdmissionBinding{want})
			wantEq(t, "mutating", len(c.Mutating), 0)
		}},
		{"mutating", bindings.ScopeModule, webhook1("kubernetesMutating", item), func(t *testing.T, c *bindings.Config) {
			wantDeep(t, "mutating", c.Mutating, []bindings.AdmissionBinding{want})
			wantEq(t, "validating", len(c.Validating), 0)
		}},
	})
}

// What a key left out defaults to.
func TestParseAdmissionDefaults(t *testing.T) {
	want := []bindings.AdmissionBinding{{Name: "a.example.com", FailurePolicy: "Fail",
		SideEffects: "None", TimeoutSeconds: 10}}
	check := func(t *testing.T, c *bindings.Config) { wantDeep(t, "validating", c.Validating, want) }
	runParseCases(t, []parseCase{
		{"json", 0, `{"configVersion":"v1","kubernetesValidating":[{"name":"a.example.com"}]}`, check},
		{"one object for a list", 0, `{"configVersion":"v1","kubernetesValidating":{"name":"a.example.com"}}`, check},
		{"yaml", 0, "configVersion: v1\nkubernetesValidating:\n- name: a.example.com\n", check},
		{"global hook", bindings.ScopeGlobal, `{"configVersion":"v1","kubernetesValidating":[{"name":"a.example.com"}]}`, check},
		{"rule without scope", 0, `{"configVersion":"v1","kubernetesValidating":[{"name":"a.example.com","rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["*"]}]}]}`,
			func(t *testing.T, c *bindings.Config) {
				r := c.Validating[0].Rules[0]
				wantEq(t, "scope", r.Scope == nil, true)
				wantEq(t, "operations", slices.Equal(r.Operations, []string{"*"}), true)
			}},
	})
}

// Mutating bindings get the schema's checks only, as in shell-operator:
// what the apiserver's validation of validating webhooks refuses is taken.
// So is what that validation takes for the order of the resources.
func TestParseAdmissionChecksOnlyValidating(t *testing.T) {
	rule := `"rules":[{"apiGroups":["*","apps"],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]}]`
	runParseCases(t, []parseCase{
		{"mutating: short name, long timeout, wildcard with others", 0,
			`{"configVersion":"v1","kubernetesMutating":[{"name":"m","timeoutSeconds":60,` + rule + `},{"name":"m"}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "bindings", len(c.Mutating), 2)
				wantEq(t, "timeout", c.Mutating[0].TimeoutSeconds, int32(60))
			}},
		{"validating: '*' after a plain resource", 0, webhook1("kubernetesValidating",
			`{"name":"a.b.c","rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods","*"],"operations":["CREATE"]}]}`),
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "resources", len(c.Validating[0].Rules[0].Resources), 2)
			}},
		{"validating: x/y before x/*", 0, webhook1("kubernetesValidating",
			`{"name":"a.b.c","rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods/status","pods/*"],"operations":["CREATE"]}]}`),
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "resources", len(c.Validating[0].Rules[0].Resources), 2)
			}},
		{"validating: one of each wildcard", 0, webhook1("kubernetesValidating",
			`{"name":"a.b.c","rules":[{"apiGroups":["*"],"apiVersions":["*"],"resources":["*"],"operations":["*"],"scope":"*"}]}`),
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "scope", *c.Validating[0].Rules[0].Scope, "*")
			}},
		{"validating: names unique in the list, not across types", 0,
			`{"configVersion":"v1","kubernetes":[{"name":"a.b.c","kind":"Pod"}],"kubernetesValidating":[{"name":"a.b.c"}],"kubernetesMutating":[{"name":"a.b.c"}]}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "validating", c.Validating[0].Name, "a.b.c") }},
		{"matchConditions keep only name and expression", 0, webhook1("kubernetesMutating",
			`{"name":"m","matchConditions":[{"name":"n","expression":"true","comment":"extra keys are no error"}]}`),
			func(t *testing.T, c *bindings.Config) {
				wantDeep(t, "conditions", c.Mutating[0].MatchConditions, []bindings.MatchCondition{{Name: "n", Expression: "true"}})
			}},
	})
}

func TestParseConversion(t *testing.T) {
	item := `{"name":"crontabs","crdName":"crontabs.stable.example.com","includeSnapshotsFrom":["pods"],"group":"g",
		"conversions":[{"fromVersion":"v1alpha1","toVersion":"v1"},{"fromVersion":"stable.example.com/v1","toVersion":"stable.example.com/v2"}]}`
	want := []bindings.ConversionBinding{{Name: "crontabs", CRDName: "crontabs.stable.example.com",
		IncludeSnapshotsFrom: []string{"pods"}, Group: "g",
		Conversions: []bindings.ConversionRule{{FromVersion: "v1alpha1", ToVersion: "v1"},
			{FromVersion: "stable.example.com/v1", ToVersion: "stable.example.com/v2"}}}}
	check := func(t *testing.T, c *bindings.Config) { wantDeep(t, "conversion", c.Conversion, want) }
	runParseCases(t, []parseCase{
		{"module hook", bindings.ScopeModule, webhook1("kubernetesCustomResourceConversion", item), check},
		{"global hook", bindings.ScopeGlobal, webhook1("kubernetesCustomResourceConversion", item), check},
		{"only the required keys", 0, `{"configVersion":"v1","kubernetesCustomResourceConversion":[{"name":"c","crdName":"a.b","conversions":[{"fromVersion":"v1","toVersion":"v2"}]}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantDeep(t, "conversion", c.Conversion, []bindings.ConversionBinding{{Name: "c", CRDName: "a.b",
					Conversions: []bindings.ConversionRule{{FromVersion: "v1", ToVersion: "v2"}}}})
			}},
	})
}

// All three keys in one hook, next to the others, global and module.
func TestParseWebhookBindingsTogether(t *testing.T) {
	const cfg = `{"configVersion":"v1","onStartup":1,
	  "kubernetesValidating":[{"name":"v.example.com","rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods"]}]}],
	  "kubernetesMutating":[{"name":"m1"},{"name":"m2"}],
	  "kubernetesCustomResourceConversion":[{"name":"c","crdName":"a.b.c","conversions":[{"fromVersion":"v1","toVersion":"v2"}]}]}`
	check := func(t *testing.T, c *bindings.Config) {
		wantEq(t, "validating", len(c.Validating), 1)
		wantEq(t, "mutating", c.Mutating[0].Name+","+c.Mutating[1].Name, "m1,m2")
		wantEq(t, "conversion", c.Conversion[0].CRDName, "a.b.c")
		wantEq(t, "has webhooks", c.HasWebhooks(), true)
		wantEq(t, "kubernetes", len(c.Kubernetes), 0)
		order, _ := c.Order(bindings.OnStartup)
		wantEq(t, "onStartup", order, 1.0)
	}
	runParseCases(t, []parseCase{
		{"module hook", bindings.ScopeModule, cfg, check},
		{"global hook", bindings.ScopeGlobal, cfg, check},
	})
}

// A webhook binding's context carries its includeSnapshotsFrom and the
// kubernetes bindings of its group; one with neither carries none.
func TestWebhookSnapshotNames(t *testing.T) {
	c, err := Parse([]byte(`{"configVersion":"v1",
		"kubernetes":[{"name":"a","kind":"Pod","group":"g"},{"name":"b","kind":"Secret","group":"g"},{"name":"c","kind":"ConfigMap"}],
		"kubernetesValidating":[{"name":"v.example.com","group":"g","includeSnapshotsFrom":["c","a"]},{"name":"bare.example.com"}],
		"kubernetesMutating":[{"name":"m","includeSnapshotsFrom":["c"]},{"name":"lonely","group":"nobody"}],
		"kubernetesCustomResourceConversion":[{"name":"conv","crdName":"x.y","group":"g","conversions":[{"fromVersion":"v1","toVersion":"v2"}]}]}`), bindings.ScopeModule)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		t       bindings.Type
		binding string
		want    []string
		ok      bool
	}{
		{bindings.Validating, "v.example.com", []string{"a", "b", "c"}, true},
		{bindings.Validating, "bare.example.com", nil, false},
		{bindings.Mutating, "m", []string{"c"}, true},
		{bindings.Mutating, "lonely", nil, true},
		{bindings.Conversion, "conv", []string{"a", "b"}, true},
		{bindings.Validating, "m", nil, false},
		{bindings.Kubernetes, "a", nil, false},
	}
	for _, tc := range cases {
		names, ok := c.WebhookSnapshotNames(tc.t, tc.binding)
		if !slices.Equal(names, tc.want) || ok != tc.ok {
			t.Errorf("WebhookSnapshotNames(%s, %s) = %v, %v; want %v, %v", tc.t, tc.binding, names, ok, tc.want, tc.ok)
		}
	}
	wantEq(t, "NeedsSnapshots", c.NeedsSnapshots(), true)
}
