package e2e_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

// mcModule is a module of this test's own, named after its namespace:
// ModuleConfigs are cluster-scoped, and an operator reads only those of
// its own modules. Its settings are at version 3: v2 renames msg to
// message, v3 message to text, a string.
func mcModule(t *testing.T, ns string) (name string, names values.Names, root string) {
	t.Helper()
	sum := sha256.Sum256([]byte(ns))
	name = "mc"
	for _, b := range sum[:6] {
		name += string(rune('a' + b%26))
	}
	names, err := values.NamesOf(name)
	if err != nil {
		t.Fatal(err)
	}
	key := names.ValuesKey
	root = tree(t, map[string]string{
		"modules/001-" + name + "/Chart.yaml":                  "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n",
		"modules/001-" + name + "/templates/cm.yaml":           "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mc-cm\ndata:\n  text: {{ .Values." + key + ".text | quote }}\n",
		"modules/001-" + name + "/openapi/config-values.yaml":  "type: object\nadditionalProperties: false\nproperties:\n  text: {type: string}\n",
		"modules/001-" + name + "/openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .message = .msg | del(.msg)\n",
		"modules/001-" + name + "/openapi/conversions/v3.yaml": "version: 3\nconversions:\n  - .text = .message | del(.message)\n",
		"modules/001-" + name + "/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`record "$(jq -r .`+key+`.text $VALUES_PATH)" before`),
	})
	return name, names, root
}

// mcClient is the ModuleConfigs' dynamic client; the test's object is
// deleted at its end.
func mcClient(t *testing.T, name string) dynamic.ResourceInterface {
	t.Helper()
	res := dynamic.NewForConfigOrDie(kube.Config(t)).Resource(config.ModuleConfigResource)
	t.Cleanup(func() { _ = res.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return res
}

// putMC creates or replaces the object from its spec in YAML.
func putMC(t *testing.T, res dynamic.ResourceInterface, name, spec string) {
	t.Helper()
	u := &unstructured.Unstructured{}
	doc := "apiVersion: " + moduleconfig.APIVersion + "\nkind: ModuleConfig\nmetadata:\n  name: " + name + "\nspec:\n" + spec
	if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cur, err := res.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = res.Create(ctx, u, metav1.CreateOptions{})
	} else if err == nil {
		u.SetResourceVersion(cur.GetResourceVersion())
		_, err = res.Update(ctx, u, metav1.UpdateOptions{})
	}
	if err != nil {
		t.Fatalf("put ModuleConfig %s: %v", name, err)
	}
}

// waitMCStatus watches the object until its status holds (a watch
// without a resourceVersion starts with the object as it is).
func waitMCStatus(t *testing.T, res dynamic.ResourceInterface, name, what string, cond func(moduleconfig.Status, int64) bool) moduleconfig.Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := res.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var last moduleconfig.Status
	for ev := range w.ResultChan() {
		u, ok := ev.Object.(*unstructured.Unstructured)
		if !ok {
			continue
		}
		var mc moduleconfig.ModuleConfig
		raw, _ := u.MarshalJSON()
		if yaml.Unmarshal(raw, &mc) == nil {
			last = mc.Status
			if cond(mc.Status, u.GetGeneration()) {
				return mc.Status
			}
		}
	}
	t.Fatalf("ModuleConfig %s: %s: not within 60s; status %+v", name, what, last)
	return last
}

func condition(st moduleconfig.Status, kind string) moduleconfig.Condition {
	for _, c := range st.Conditions {
		if c.Type == kind {
			return c
		}
	}
	return moduleconfig.Condition{}
}

// appliedAt: Valid and Applied for generation gen.
func appliedAt(st moduleconfig.Status, gen int64) bool {
	return condition(st, moduleconfig.ConditionValid).Status == "True" &&
		condition(st, moduleconfig.ConditionApplied).ObservedGeneration == gen
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func hasRelease(t *testing.T, ns, name string) bool {
	t.Helper()
	secrets, err := kube.Client(t).CoreV1().Secrets(ns).List(context.Background(),
		metav1.ListOptions{LabelSelector: "owner=helm,status=deployed,name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	return len(secrets.Items) > 0
}

// TestModuleConfigInTheRunningOperator walks one module through issue 44's
// read side: its ConfigMap section, then a ModuleConfig over it (the
// section and enabled key ignored, WARN), a version-1 object converted
// through v2 and v3 (status and metric say obsolete), an invalid object
// (status says why, the module keeps its last good values, counted),
// enabled=false (the release deleted), the object deleted (back to the
// ConfigMap), and `config export` round-tripped (nothing re-runs).
func TestModuleConfigInTheRunningOperator(t *testing.T) {
	ns := kube.Namespace(t)
	name, names, root := mcModule(t, ns)
	key := names.ValuesKey
	res := mcClient(t, name)
	// The ConfigMap carries no version: its section is at version 1.
	scenario.PutConfigMap(t, kube, ns, map[string]string{key: "msg: cm\n", names.EnabledKey: "true"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	before := func() string { return lastLine(record(t, root, "before")) }
	if got := before(); got != "cm" {
		t.Fatalf("first run saw %q, want the ConfigMap's cm", got)
	}

	putMC(t, res, name, "  enabled: true\n  version: 3\n  settings:\n    text: object\n")
	op.waitUntil(t, "the run with the object's settings", func() bool { return before() == "object" })
	waitMCStatus(t, res, name, "Valid and Applied at 1", appliedAt)
	if op.count("ConfigMap key ignored: a ModuleConfig configures its module", nil) == 0 {
		t.Fatalf("no WARN naming the ignored ConfigMap keys:\n%s", op.logText())
	}

	putMC(t, res, name, "  enabled: true\n  version: 1\n  settings:\n    msg: converted\n")
	op.waitUntil(t, "the run with the v1 settings converted to v3", func() bool { return before() == "converted" })
	st := waitMCStatus(t, res, name, "applied at 2", appliedAt)
	if st.Version != "1" || !strings.Contains(st.Message, "obsolete") {
		t.Fatalf("status of a v1 object: version %q, message %q; want 1 and obsolete", st.Version, st.Message)
	}
	op.waitMetrics(t, fmt.Sprintf(`addon_operator_module_config_obsolete_version{latest="3",module="%s",version="1"} 1`, name))

	runs := strings.Count(record(t, root, "before"), "\n")
	putMC(t, res, name, "  enabled: true\n  version: 3\n  settings:\n    text: 5\n")
	st = waitMCStatus(t, res, name, "Valid=False", func(st moduleconfig.Status, gen int64) bool {
		return condition(st, moduleconfig.ConditionValid).Status == "False" && condition(st, moduleconfig.ConditionValid).ObservedGeneration == gen
	})
	if !strings.Contains(st.Message, "text") || condition(st, moduleconfig.ConditionApplied).ObservedGeneration != 2 {
		t.Fatalf("status of an invalid object: %+v; want the field named and generation 2 kept", st)
	}
	op.waitIdle(t)
	if n := strings.Count(record(t, root, "before"), "\n"); n != runs || before() != "converted" {
		t.Fatalf("an invalid object ran the module: %d runs (was %d), last %q", n, runs, before())
	}
	op.waitMetrics(t, fmt.Sprintf(`addon_operator_module_config_invalid_total{module="%s"} 1`, name))

	putMC(t, res, name, "  enabled: false\n")
	op.waitUntil(t, "the release deleted", func() bool { return !hasRelease(t, ns, name) })

	if err := res.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "back to the ConfigMap's section", func() bool { return hasRelease(t, ns, name) && before() == "cm" })

	exportRoundTrip(t, op, res, ns, name, root)
}

// exportRoundTrip: `config export` prints the module's object equal to
// its ConfigMap keys; applied, and the keys deleted from the ConfigMap,
// nothing runs again.
func exportRoundTrip(t *testing.T, op *operator, res dynamic.ResourceInterface, ns, name, root string) {
	t.Helper()
	out := op.cli(t, "config", "export", "--kubeconfig", kube.Kubeconfig(), "--namespace", ns)
	objects, err := moduleconfig.Parse("config export", []byte(out))
	if err != nil {
		t.Fatalf("config export: %v\n%s", err, out)
	}
	var spec string
	for _, mc := range objects.ModuleConfigs {
		if mc.Metadata.Name == name {
			b, _ := yaml.Marshal(mc.Spec)
			spec = "  " + strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", "\n  ") + "\n"
		}
	}
	if spec == "" {
		t.Fatalf("config export has no %s:\n%s", name, out)
	}
	runs := strings.Count(record(t, root, "before"), "\n")
	putMC(t, res, name, spec)
	waitMCStatus(t, res, name, "applied at 1", appliedAt)
	// The keys go; an unknown key is the mark that this version was read.
	scenario.PutConfigMap(t, kube, ns, map[string]string{"export-mark": "a: 1\n"})
	op.waitLog(t, 60*time.Second, "the ConfigMap without the module's keys read", func(recs []map[string]any) bool {
		for _, r := range recs {
			if r["msg"] == "ConfigMap has keys that are no module's; they are kept but ignored" {
				return true
			}
		}
		return false
	})
	op.waitIdle(t)
	if n := strings.Count(record(t, root, "before"), "\n"); n != runs {
		t.Fatalf("the export's object and the ConfigMap without the module's keys ran the module again: %d runs, was %d", n, runs)
	}
}

// TestModuleConfigsOff: with ADDON_OPERATOR_MODULE_CONFIGS=false a
// ModuleConfig is not read (its settings never reach the module, its
// status is not written) and ConfigMap sections are not converted.
func TestModuleConfigsOff(t *testing.T) {
	ns := kube.Namespace(t)
	name, names, root := mcModule(t, ns)
	res := mcClient(t, name)
	if err := crds.EnsureOwn(context.Background(), dynamic.NewForConfigOrDie(kube.Config(t)), moduleconfig.CRD()); err != nil {
		t.Fatal(err)
	}
	putMC(t, res, name, "  enabled: true\n  version: 3\n  settings:\n    text: object\n")
	scenario.PutConfigMap(t, kube, ns, map[string]string{names.ValuesKey: "text: cm\n", names.EnabledKey: "true"})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULE_CONFIGS=false")
	op.waitReady(t)
	op.waitIdle(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{names.ValuesKey: "text: cm2\n", names.EnabledKey: "true"})
	op.waitUntil(t, "the run with the ConfigMap's cm2", func() bool { return lastLine(record(t, root, "before")) == "cm2" })
	if runs := record(t, root, "before"); runs != "cm\ncm2\n" {
		t.Fatalf("runs saw %q, want the ConfigMap's cm then cm2 alone", runs)
	}
	u, err := res.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := u.Object["status"]; ok {
		t.Fatalf("status written with ModuleConfigs off: %v", st)
	}
}
