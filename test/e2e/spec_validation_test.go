package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/VALUES.md, "Validation": the OpenAPI schemas of a module and of the
// global values, seen from outside.

// alphaChart is module alpha's chart: a ConfigMap alpha whose data are
// the keys of alpha's values.
func alphaChart(files map[string]string) map[string]string {
	files["modules/001-alpha/Chart.yaml"] = "apiVersion: v2\nname: alpha\nversion: 0.1.0\n"
	files["modules/001-alpha/templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata:\n" +
		"{{- range $k, $v := .Values.alpha }}\n  {{ $k }}: {{ $v | toString | quote }}\n{{- end }}\n"
	return files
}

// An invalid ConfigMap change is logged and queues nothing: the module
// does not run with it, nor again with its old values; a change whose
// other sections are valid is rejected whole (neither the module nor
// beforeAll runs with them); the next valid change runs it.
func TestSpecInvalidConfigMapChangeQueuesNothing(t *testing.T) {
	root := specTree(t, alphaChart(map[string]string{
		"modules/values.yaml":                          "alphaEnabled: true\n",
		"modules/001-alpha/openapi/config-values.yaml": "type: object\nproperties:\n  replicas:\n    type: integer\n",
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`record "$(jq -c .alpha.replicas $VALUES_PATH)" replicas`),
		"global-hooks/openapi/config-values.yaml": "type: object\nproperties:\n  project:\n    type: string\n",
		"global-hooks/before-all":                 hook(`{"configVersion":"v1","beforeAll":1}`, `record "$(jq -c .global.project $VALUES_PATH)" before-all`),
	}))
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: one\n", "alpha": "replicas: 2\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)

	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: one\n", "alpha": "replicas: many\n"})
	op.waitRecord(t, config.RejectedMessage, map[string]any{"owner": "module/alpha"})
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: [not, a, string]\n", "alpha": "replicas: 5\n"})
	op.waitRecord(t, config.RejectedMessage, map[string]any{"owner": "global"})
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: two\n", "alpha": "replicas: many\n"})
	waitRejections(t, op, 3)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: one\n", "alpha": "replicas: 3\n"})
	op.waitUntil(t, "alpha run with replicas 3", func() bool { return strings.Contains(record(t, root, "replicas"), "3") })
	op.waitIdle(t)
	if got := record(t, root, "replicas"); got != "2\n3\n" {
		t.Fatalf("alpha's beforeHelm saw replicas\n%s\nwant 2 then 3", got)
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: two\n", "alpha": "replicas: 3\n"})
	op.waitUntil(t, "beforeAll with project two", func() bool { return strings.Contains(record(t, root, "before-all"), "two") })
	if got := record(t, root, "before-all"); got != "\"one\"\n\"two\"\n" {
		t.Fatalf("beforeAll saw project\n%s\nwant one then two", got)
	}
	if got := scenario.ConfigMapData(t, kube, ns, "alpha")["replicas"]; got != "3" {
		t.Fatalf("helm got replicas %q", got)
	}
}

// waitRejections waits until n changes of the ConfigMap were rejected.
func waitRejections(t *testing.T, op *operator, n int) {
	t.Helper()
	op.waitLog(t, 60*time.Second, fmt.Sprintf("%d rejected changes", n), func(recs []map[string]any) bool {
		seen := 0
		for _, rec := range recs {
			if matches(rec, config.RejectedMessage, nil) {
				seen++
			}
		}
		return seen >= n
	})
}

// retriedPatch is a hook body that writes into patchFile an add of path
// with the value bad on its first run and good after, recording each.
func retriedPatch(patchFile, path, bad, good string) string {
	return `if [[ -e $RECORD_DIR/tried ]]; then v='` + good + `'; else v='` + bad + `'; fi; record "$v" tried
echo "[{\"op\":\"add\",\"path\":\"` + path + `\",\"value\":$v}]" > $` + patchFile
}

// A patch that breaks a schema is a hook failure: the hook runs again, and
// only the valid patch takes effect. A config patch against the global
// config-values.yaml (the ConfigMap gets only the valid one), a values
// patch against a module's values.yaml (helm gets only the valid one).
func TestSpecInvalidPatchRetriesTheHook(t *testing.T) {
	cases := []struct {
		name, tried string
		files       map[string]string
		config      map[string]string
		check       func(t *testing.T, ns string) (string, string)
	}{{
		name: "config patch", tried: "{}\n\"host.example\"\n",
		files: map[string]string{
			"global-hooks/openapi/config-values.yaml": "type: object\nproperties:\n  project:\n    type: string\n  clusterHostname:\n    type: string\n",
			"global-hooks/startup": hook(`{"configVersion":"v1","onStartup":1}`,
				retriedPatch("CONFIG_VALUES_JSON_PATCH_PATH", "/global/clusterHostname", "{}", `"host.example"`)),
		},
		config: map[string]string{"global": "project: myProject\n"},
		check: func(t *testing.T, ns string) (string, string) {
			return scenario.ConfigMapData(t, kube, ns, "addon-operator")["global"], "clusterHostname: host.example\nproject: myProject\n"
		},
	}, {
		name: "values patch", tried: "\"two\"\n2\n",
		files: alphaChart(map[string]string{
			"modules/values.yaml":                   "alphaEnabled: true\n",
			"modules/001-alpha/openapi/values.yaml": "type: object\nproperties:\n  replicas:\n    type: integer\n",
			"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
				retriedPatch("VALUES_JSON_PATCH_PATH", "/alpha/replicas", `"two"`, "2")),
		}),
		config: map[string]string{},
		check: func(t *testing.T, ns string) (string, string) {
			return scenario.ConfigMapData(t, kube, ns, "alpha")["replicas"], "2"
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, ns := specTree(t, c.files), kube.Namespace(t)
			scenario.PutConfigMap(t, kube, ns, c.config)
			startSpec(t, root, ns).waitReady(t)
			if got := record(t, root, "tried"); got != c.tried {
				t.Fatalf("the hook ran with patches\n%s\nwant\n%s", got, c.tried)
			}
			if got, want := c.check(t, ns); got != want {
				t.Fatalf("in effect: %q, want %q", got, want)
			}
		})
	}
}

// x-required-for-helm: each hook prepares one required value; values are
// not checked for them after a hook, only before helm, which a missing one
// stops.
func TestSpecRequiredForHelm(t *testing.T) {
	second := `if [[ -e $RECORD_DIR/order ]] && grep -q b $RECORD_DIR/order; then
  echo '[{"op":"add","path":"/alpha/param2","value":"p2"}]' > $VALUES_JSON_PATCH_PATH
fi; record b order`
	root := specTree(t, alphaChart(map[string]string{
		"modules/values.yaml": "alphaEnabled: true\n",
		"modules/001-alpha/openapi/values.yaml": "type: object\nx-required-for-helm:\n  - param1\n  - param2\n" +
			"properties:\n  param1:\n    type: string\n  param2:\n    type: string\n",
		"modules/001-alpha/hooks/a": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`echo '[{"op":"add","path":"/alpha/param1","value":"p1"}]' > $VALUES_JSON_PATCH_PATH; record a order`),
		"modules/001-alpha/hooks/b": hook(`{"configVersion":"v1","beforeHelm":2}`, second),
	}))
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := record(t, root, "order"); got != "a\nb\na\nb\n" {
		t.Fatalf("hooks ran\n%s\nwant a b (helm refused), a b", got)
	}
	if cm := scenario.ConfigMapData(t, kube, ns, "alpha"); cm["param1"] != "p1" || cm["param2"] != "p2" {
		t.Fatalf("helm got %v", cm)
	}
	if n := op.count("task failed; retrying", map[string]any{"attempt": 1.0}); n != 1 {
		t.Fatalf("%d retries logged, want 1", n)
	}
}

// Defaults of the schemas fill what no layer sets, for hooks and helm; the
// schema is closed (additionalProperties: false) unless it says otherwise.
func TestSpecSchemaDefaults(t *testing.T) {
	root := specTree(t, alphaChart(map[string]string{
		"modules/values.yaml": "alphaEnabled: true\n",
		"modules/001-alpha/openapi/config-values.yaml": "type: object\nproperties:\n  level:\n    type: string\n    default: low\n" +
			"  size:\n    type: integer\n    default: 5\n",
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`jq -c '{g: .global.discovery, a: .alpha}' $VALUES_PATH > $RECORD_DIR/seen`),
		"global-hooks/openapi/config-values.yaml": "type: object\nproperties:\n  project:\n    type: string\n",
		"global-hooks/openapi/values.yaml": "x-extend:\n  schema: config-values.yaml\ntype: object\nproperties:\n" +
			"  discovery:\n    type: object\n    default: {}\n",
		"global-hooks/mkdir": hook(`{"configVersion":"v1","onStartup":1}`, `mkdir -p $RECORD_DIR`),
	}))
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alpha": "size: 7\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	scenario.JSONEqual(t, "alpha's beforeHelm $VALUES_PATH", record(t, root, "seen"), `{"g":{},"a":{"level":"low","size":7}}`)
	if cm := scenario.ConfigMapData(t, kube, ns, "alpha"); cm["level"] != "low" || cm["size"] != "7" {
		t.Fatalf("helm got %v", cm)
	}
	op.stop(t)

	scenario.PutConfigMap(t, kube, ns, map[string]string{"alpha": "size: 7\nunknown: x\n"})
	again := startSpec(t, root, ns)
	if code := again.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with a key the closed schema does not have\n%s", again.logText())
	}
	if !strings.Contains(again.logText(), "unknown") {
		t.Fatalf("the error does not name the key\n%s", again.logText())
	}
}
