package e2e_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/mask"
)

// randomMarker is a value no test writes elsewhere: a Secret's value to
// look for in everything the operator shows.
func randomMarker(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// putSecret creates or replaces Secret name in ns with data.
func putSecret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	ctx, secrets := context.Background(), kube.Client(t).CoreV1().Secrets(ns)
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, StringData: data}
	if _, err := secrets.Update(ctx, s, metav1.UpdateOptions{}); err == nil {
		return
	}
	if _, err := secrets.Create(ctx, s, metav1.CreateOptions{}); err != nil {
		t.Fatalf("put Secret %s/%s: %v", ns, name, err)
	}
}

// TestModuleConfigSettingsFromSecret: spec.settingsFrom through the
// binary. The module's hook sees the Secret's value at the path; a change
// of the Secret re-runs the module with the new value; a missing key makes
// the object not valid (the status names the Secret and the key), counted,
// and the module keeps its values. No value appears in the log, plan (an
// -f file whose object names another Secret: the change shown as masks),
// module why, module render, module values, /metrics,
// the debug API's values, the ModuleConfig's and the Module's status, or
// Events.
func TestModuleConfigSettingsFromSecret(t *testing.T) {
	ns := kube.Namespace(t)
	name, names, root := mcModule(t, ns)
	res := mcClient(t, name)
	first, second, candidate := randomMarker(t, "first-"), randomMarker(t, "second-"), randomMarker(t, "candidate-")
	putSecret(t, ns, "mc-creds", map[string]string{"text": first})
	spec := "  enabled: true\n  version: 3\n  settingsFrom:\n  - secretKeyRef: {name: mc-creds, key: text}\n    path: text\n"
	ensureModuleConfigCRD(t)
	putMC(t, res, name, spec)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	before := func() string { return lastLine(record(t, root, "before")) }
	if got := before(); got != first {
		_ = os.WriteFile("/tmp/y1-op.log", []byte(op.logText()), 0o600)
		t.Fatalf("the hook saw %q, want the Secret's value", got)
	}
	waitMCStatus(t, res, name, "Valid and Applied at 1", appliedAt)

	putSecret(t, ns, "mc-creds", map[string]string{"text": second})
	op.waitUntil(t, "the run with the Secret's new value", func() bool { return before() == second })
	op.waitIdle(t)
	runs := strings.Count(record(t, root, "before"), "\n")

	putSecret(t, ns, "mc-creds", map[string]string{"other": first})
	st := waitMCStatus(t, res, name, "Valid=False", func(st moduleconfig.Status, _ int64) bool {
		return condition(st, moduleconfig.ConditionValid).Status == "False"
	})
	if want := `Secret "mc-creds" key "text": not found`; !strings.Contains(st.Message, want) {
		t.Fatalf("status of a missing key: %q; want %q", st.Message, want)
	}
	op.waitMetrics(t, fmt.Sprintf(`addon_operator_module_config_invalid_total{module="%s"} 1`, name))
	op.waitIdle(t)
	if n := strings.Count(record(t, root, "before"), "\n"); n != runs || before() != second {
		t.Fatalf("a missing key ran the module: %d runs (was %d), last %q", n, runs, before())
	}
	putSecret(t, ns, "mc-creds", map[string]string{"text": second})
	waitMCStatus(t, res, name, "valid again", func(st moduleconfig.Status, _ int64) bool {
		return condition(st, moduleconfig.ConditionValid).Status == "True"
	})
	op.waitIdle(t)
	// plan -f with an object naming another Secret: the change shows as
	// two masks.
	putSecret(t, ns, "mc-candidate", map[string]string{"text": candidate})
	shown := shownWithSecrets(t, op, root, ns, name, names.ValuesKey, strings.Replace(spec, "mc-creds", "mc-candidate", 1))
	if want := mask.String(candidate); !strings.Contains(shown["plan -f"], want) || !strings.Contains(shown["plan -f"], mask.String(second)) {
		t.Errorf("plan -f shows no change from %s to %s:\n%s", mask.String(second), want, shown["plan -f"])
	}
	for what, text := range shown {
		for _, marker := range []string{first, second, candidate, b64(first), b64(second), b64(candidate)} {
			if strings.Contains(text, marker) {
				t.Errorf("%s shows a Secret's value %q:\n%s", what, marker, grepLines(text, marker))
			}
		}
	}
	if v := shown["module values"]; !strings.Contains(v, "sha256:") {
		t.Errorf("module values show no mask where the Secret's value is:\n%s", v)
	}
}

// shownWithSecrets is everything the operator shows of the module, by
// what it is.
func shownWithSecrets(t *testing.T, op *operator, root, ns, name, key, spec string) map[string]string {
	t.Helper()
	file := filepath.Join(root, "plan-mc.yaml")
	doc := "apiVersion: " + moduleconfig.APIVersion + "\nkind: ModuleConfig\nmetadata:\n  name: " + name + "\nspec:\n" + spec
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	retryUntil(t, "the Module object written", func() error {
		out, err := kubectl("get", "modules.addon-operator.io", "-l", "addon-operator.io/namespace="+ns, "-o", "name")
		if err == nil && !strings.Contains(out, "/"+name) {
			err = fmt.Errorf("no Module object of %s: %s", name, out)
		}
		return err
	})
	shown := map[string]string{"log": op.logText()}
	shown["plan"], _ = runPlan(t, op)
	shown["plan -f"], _ = runPlan(t, op, "-f", file)
	shown["plan -f -o json"], _ = runPlan(t, op, "-f", file, "-o", "json")
	shown["plan --set"], _ = runPlan(t, op, "--set", key+".other=x")
	shown["module why"] = op.cli(t, "module", "why", name)
	shown["module values"] = op.cli(t, "module", "values", name, "-o", "json")
	shown["module render"] = op.cli(t, "module", "render", name)
	shown["actors --history config"] = op.cli(t, "actors", "--history", "config")
	shown["actors --history module"] = op.cli(t, "actors", "--history", "module/"+name)
	_, shown["/metrics"] = op.get(t, "/metrics")
	for what, args := range map[string][]string{
		"ModuleConfig": {"get", "moduleconfigs.addon-operator.io", name, "-o", "yaml"},
		"Module":       {"get", "modules.addon-operator.io", "-l", "addon-operator.io/namespace=" + ns, "-o", "yaml"},
		"Events":       {"get", "events", "-A", "-o", "yaml"},
	} {
		out, err := kubectl(args...)
		if err != nil {
			t.Fatalf("kubectl %v: %v\n%s", args, err, out)
		}
		shown[what] = out
	}
	t.Logf("plan -f:\n%s", shown["plan -f"])
	return shown
}
