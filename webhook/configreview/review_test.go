package configreview_test

import (
	"encoding/json"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/webhook/configreview"
)

// catalog holds module web (settings at version 2: v2 renames count to
// replicas; its schema wants replicas >= 1 and nothing else), module db
// (no schema), which web and cache require, cache requiring it optionally
// too via metrics, and the global values without a schema.
func catalog(t testing.TB) *configreview.Catalog {
	t.Helper()
	root := scenario.TempTree(t, map[string]string{
		"010-db/values.yaml":                  "db: {}\n",
		"020-web/values.yaml":                 "web:\n  image: nginx\n",
		"020-web/module.yaml":                 "requirements:\n  modules:\n    db: '>= 0.0.0'\n",
		"020-web/openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n",
		"020-web/openapi/config-values.yaml": "type: object\nadditionalProperties: false\nproperties:\n  image: {type: string}\n" +
			"  replicas: {type: integer, minimum: 1}\n",
		"030-cache/module.yaml":   "requirements:\n  modules:\n    db: '>= 0.0.0'\n    metrics: '>= 1.0 !optional'\n",
		"040-metrics/values.yaml": "metrics: {}\n",
	}, 0o644)
	defs, errs := layout.Scan([]string{root}, values.Sections{})
	if len(errs) > 0 || len(defs) != 4 {
		t.Fatalf("scan: %d modules, %v", len(defs), errs)
	}
	global := moduleconfig.GlobalTarget(nil, values.Sections{}, conversion.Chain{})
	return configreview.NewCatalog(defs, &global)
}

// request is an AdmissionRequest of op on the object manifest (JSON).
func request(op admissionv1.Operation, manifest string) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{UID: "u", Operation: op, Object: runtime.RawExtension{Raw: []byte(manifest)}}
}

func mc(name, spec string) string {
	return `{"apiVersion":"addon-operator.io/v1alpha1","kind":"ModuleConfig","metadata":{"name":"` + name + `","uid":"x","generation":2},"spec":` + spec + `}`
}

func TestReview(t *testing.T) {
	cat := catalog(t)
	tests := []struct {
		name     string
		req      *admissionv1.AdmissionRequest
		denied   string   // the message holds it; "" allowed
		warnings []string // each held by one warning, in order
	}{
		{name: "valid", req: request(admissionv1.Create, mc("web", `{"version":2,"settings":{"replicas":2}}`))},
		{name: "invalid names the field", req: request(admissionv1.Update, mc("web", `{"version":2,"settings":{"replicas":0}}`)),
			denied: `ModuleConfig "web": spec.settings (version 2 converted to 2): settings are not valid: ` +
				`module "web": values do not match openapi/config-values.yaml: /web/replicas: minimum`},
		{name: "unknown setting named", req: request(admissionv1.Create, mc("web", `{"version":2,"settings":{"replica":2}}`)),
			denied: "replica"},
		{name: "obsolete version converted and warned", req: request(admissionv1.Create, mc("web", `{"version":1,"settings":{"count":3}}`)),
			warnings: []string{`ModuleConfig "web": spec.version=1 is obsolete: the latest is 2`}},
		{name: "obsolete and invalid after conversion", req: request(admissionv1.Create, mc("web", `{"settings":{"count":0}}`)),
			denied: "version 1 converted to 2", warnings: []string{"spec.version=1 is obsolete"}},
		{name: "unknown version", req: request(admissionv1.Create, mc("web", `{"version":3,"settings":{"replicas":1}}`)),
			denied: `spec.version: unknown settings version: 3; the latest is 2`},
		{name: "unknown module allowed with a warning", req: request(admissionv1.Create, mc("ghost", `{"settings":{"a":1}}`)),
			warnings: []string{`ModuleConfig "ghost": unknown module`}},
		{name: "disabling a required module", req: request(admissionv1.Update, mc("db", `{"enabled":false}`)),
			warnings: []string{`ModuleConfig "db": spec.enabled=false disables a module that cache, web require`}},
		{name: "disabling an optionally required module", req: request(admissionv1.Create, mc("metrics", `{"enabled":false}`))},
		{name: "enabling a required module", req: request(admissionv1.Create, mc("db", `{"enabled":true}`))},
		{name: "unknown spec field", req: request(admissionv1.Create, mc("web", `{"setting":{}}`)),
			denied: `ModuleConfig "web": spec: invalid ModuleConfig: json: unknown field "setting"`},
		{name: "Deckhouse apiVersion", req: request(admissionv1.Create,
			strings.Replace(mc("web", `{}`), "addon-operator.io/v1alpha1", "deckhouse.io/v1alpha1", 1)),
			denied: "apiVersion: invalid ModuleConfig: deckhouse.io/v1alpha1 is Deckhouse's; change it to addon-operator.io/v1alpha1"},
		{name: "global ignores enabled", req: request(admissionv1.Create, mc("global", `{"enabled":false,"settings":{"a":1}}`)),
			warnings: []string{`ModuleConfig "global": spec.enabled is ignored`}},
		{name: "delete is not reviewed", req: &admissionv1.AdmissionRequest{Operation: admissionv1.Delete}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := configreview.Review(tc.req, cat)
			if v.Allowed != (tc.denied == "") || !strings.Contains(v.Message, tc.denied) || (v.Allowed && v.Message != "") {
				t.Fatalf("verdict %+v, want denied %q", v, tc.denied)
			}
			if len(v.Warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %d like %q", v.Warnings, len(tc.warnings), tc.warnings)
			}
			for i, w := range tc.warnings {
				if !strings.Contains(v.Warnings[i], w) {
					t.Errorf("warning %d: %q, want %q in it", i, v.Warnings[i], w)
				}
			}
		})
	}
}

// The runner answers in a validating hook's response file, which the
// dispatcher turns into the AdmissionResponse; a request that is not JSON
// is denied, not an error (an error would read as a failed hook).
func TestRunnerFile(t *testing.T) {
	r := configreview.Runner{Catalog: func() *configreview.Catalog { return catalog(t) }}
	raw, _ := json.Marshal(request(admissionv1.Create, mc("web", `{"version":2,"settings":{"replicas":0}}`)))
	file, err := r.Admit(t.Context(), configreview.Binding("Ignore"), raw)
	var v configreview.Verdict
	if err != nil || json.Unmarshal(file, &v) != nil || v.Allowed || !strings.Contains(v.Message, "spec.settings") {
		t.Fatalf("file %s, err %v; want a denial naming spec.settings", file, err)
	}
	file, err = r.Admit(t.Context(), configreview.Binding("Ignore"), json.RawMessage(`[`))
	if err != nil || json.Unmarshal(file, &v) != nil || v.Allowed || !strings.Contains(v.Message, "ModuleConfig review: request") {
		t.Fatalf("file %s, err %v; want a denial of the request", file, err)
	}
}

// The catalog's targets are the read side's: its modules and the global
// values, by ModuleConfig name.
func TestCatalogTargets(t *testing.T) {
	got := catalog(t).Targets()
	for _, name := range []string{"web", "db", "cache", "metrics", moduleconfig.GlobalName} {
		if _, ok := got[name]; !ok {
			t.Errorf("no target %q in %d targets", name, len(got))
		}
	}
	if len(got) != 5 || got["web"].Conversions.Latest() != 2 {
		t.Fatalf("%d targets, web's latest %d; want 5 and 2", len(got), got["web"].Conversions.Latest())
	}
}
