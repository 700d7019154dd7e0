package e2e_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/LIFECYCLE-STEPS.md, step 16: what each kind of ConfigMap change
// runs. A module section: that module's run without onStartup. The global
// section or an *Enabled flag: 'Reload all modules' (beforeAll, the module
// runs, afterAll), onStartup only for a module that just became enabled;
// with a module's section in the same edit, that module runs once, in the
// reload (spec/VALUES.md: a module run only if only its section changed).
func TestSpecConfigMapChangeTriggers(t *testing.T) {
	files := map[string]string{
		"modules/values.yaml":     "alphaEnabled: true\n",
		"global-hooks/before-all": hook(`{"configVersion":"v1","beforeAll":1}`, `record beforeAll order`),
		"global-hooks/after-all":  hook(`{"configVersion":"v1","afterAll":1}`, `record afterAll order`),
	}
	// Two weights: alpha runs before beta with parallel module runs too.
	for dir, m := range map[string]string{"001-alpha": "alpha", "002-beta": "beta"} {
		files["modules/"+dir+"/hooks/start"] = hook(`{"configVersion":"v1","onStartup":1}`, `record `+m+`-onStartup order`)
		files["modules/"+dir+"/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record `+m+`-beforeHelm order`)
		files["modules/"+dir+"/hooks/after"] = hook(`{"configVersion":"v1","afterHelm":1}`, `record `+m+`-afterHelm order`)
	}
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	steps := []struct {
		what string
		data map[string]string
		want string
	}{
		{"module section", map[string]string{"alpha": "a: 1\n"}, "alpha-beforeHelm alpha-afterHelm"},
		{"global section", map[string]string{"alpha": "a: 1\n", "global": "g: 1\n"},
			"beforeAll alpha-beforeHelm alpha-afterHelm afterAll"},
		{"enabled flag", map[string]string{"alpha": "a: 1\n", "global": "g: 1\n", "betaEnabled": "true"},
			"beforeAll alpha-beforeHelm alpha-afterHelm beta-onStartup beta-beforeHelm beta-afterHelm afterAll"},
		{"global and module section in one edit", map[string]string{"alpha": "a: 2\n", "global": "g: 2\n", "betaEnabled": "true"},
			"beforeAll alpha-beforeHelm alpha-afterHelm beta-beforeHelm beta-afterHelm afterAll"},
		{"module section and enabled flag in one edit", map[string]string{"alpha": "a: 3\n", "global": "g: 2\n"},
			"beforeAll alpha-beforeHelm alpha-afterHelm afterAll"},
	}
	for _, step := range steps {
		before := len(record(t, root, "order"))
		scenario.PutConfigMap(t, kube, ns, step.data)
		op.waitUntil(t, step.what+" handled", func() bool {
			got := record(t, root, "order")
			return len(got) > before && (strings.HasSuffix(got, "afterHelm\n") || strings.HasSuffix(got, "afterAll\n"))
		})
		op.waitIdle(t)
		if got := strings.Fields(record(t, root, "order")[before:]); strings.Join(got, " ") != step.want {
			t.Fatalf("%s change ran\n%v\nwant\n%s", step.what, got, step.want)
		}
	}
}
