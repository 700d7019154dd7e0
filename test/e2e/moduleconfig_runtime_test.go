package e2e_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/webhook/configreview"
)

// The global values' settings versions: $GLOBAL_HOOKS_DIR/openapi/conversions
// converts the ConfigMap's global section (version 1) to the latest
// before a global hook sees it, as a module's section is.
func TestGlobalSettingsConversion(t *testing.T) {
	ns := kube.Namespace(t)
	root := specTree(t, map[string]string{
		"global-hooks/openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n",
		"global-hooks/openapi/config-values.yaml":  "type: object\nproperties:\n  replicas: {type: integer, minimum: 1}\n",
		"global-hooks/seen": hook(`{"configVersion":"v1","beforeAll":1}`,
			`record "$(jq -c .global $VALUES_PATH)" global`),
		"modules/.keep": "",
	})
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "count: 3\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := lastLine(record(t, root, "global")); !strings.Contains(got, `"replicas":3`) || strings.Contains(got, "count") {
		t.Fatalf("the global hook saw %s, want count 3 converted to replicas", got)
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "count: 0\n"})
	op.waitRecord(t, config.RejectedMessage, map[string]any{"owner": "global"})
	if got := lastLine(record(t, root, "global")); !strings.Contains(got, `"replicas":3`) {
		t.Fatalf("after a section whose conversion fails the schema, the hook saw %s", got)
	}
}

// A global conversion chain with a gap stops start-up, naming the file.
func TestGlobalSettingsConversionGap(t *testing.T) {
	gap := map[string]string{"global-hooks/openapi/conversions/v3.yaml": "version: 3\nconversions:\n  - .\n", "modules/.keep": ""}
	op := startSpec(t, specTree(t, gap), kube.Namespace(t))
	if code := op.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with a gap in the global conversions\n%s", op.logText())
	}
	if !strings.Contains(op.logText(), "openapi/conversions/v3.yaml: version:") {
		t.Fatalf("the error does not name the file:\n%s", op.logText())
	}
}

// A module dir copied in while the operator runs is a ModuleConfig
// target once the operator has found it, without a restart: its object,
// stored before the dir appeared (allowed with the unknown-module
// warning), enables and configures it, and an invalid object for it
// is then refused by the webhook naming the field.
func TestModuleConfigModuleAddedAtRuntime(t *testing.T) {
	ns := kube.Namespace(t)
	ensureModuleConfigCRD(t)
	module := "late-" + objectTag(ns)
	key := valuesKey(t, module)
	root := tree(t, map[string]string{"modules/.keep": ""})
	deleteModuleConfigAtEnd(t, module)
	op := startSpec(t, root, ns, append(webhookEnv(t, ns), "ADDON_OPERATOR_MODULES_CHECK_INTERVAL=1s")...)
	op.waitReady(t)
	t.Cleanup(func() {
		if t.Failed() {
			data, _ := os.ReadFile(filepath.Join(root, "record", "late"))
			t.Logf("record: %q\n%s", data, op.logText())
		}
	})
	var out string
	retryUntil(t, "a ModuleConfig of a module not there yet allowed with a warning", func() error {
		var err error
		if out, err = kubectlApplyManifest(t, strings.Replace(moduleConfigManifest(module, 1, "replicas: 2"), "spec:\n", "spec:\n  enabled: true\n", 1)); err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	})
	if !strings.Contains(out, "unknown module") {
		t.Fatalf("kubectl apply of a ModuleConfig of no module: %s; want the unknown-module warning", out)
	}
	// The dir is written aside and renamed in: a look at the dirs never
	// sees half of it.
	aside := tree(t, map[string]string{
		"values.yaml":  "{}\n",
		"hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`, `record "$(jq -r .`+key+`.replicas $VALUES_PATH)" late`),
	})
	scenario.WriteTree(t, aside, map[string]string{"openapi/config-values.yaml": "type: object\n" +
		"additionalProperties: false\nproperties:\n  replicas: {type: integer, minimum: 1}\n"}, 0o644)
	if err := os.Rename(aside, filepath.Join(root, "modules", "020-"+module)); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "the module run with its object's settings", func() bool {
		data, err := os.ReadFile(filepath.Join(root, "record", "late"))
		return err == nil && lastLine(string(data)) == "2"
	})
	out, err := kubectlApplyManifest(t, moduleConfigManifest(module, 1, "replicas: 0"))
	for _, want := range []string{`admission webhook "moduleconfigs.addon-operator.io" denied the request`, "/" + key + "/replicas: minimum"} {
		if err == nil || !strings.Contains(out, want) {
			t.Fatalf("kubectl apply of an invalid ModuleConfig for a module added at runtime: %v\n%s\nwant %q", err, out, want)
		}
	}
}

// With two replicas, both serve ModuleConfig reviews and only the leader
// registers the webhook; the follower registers it when it takes over.
func TestModuleConfigWebhookOnlyLeaderRegisters(t *testing.T) {
	ns := kube.Namespace(t)
	ensureModuleConfigCRD(t)
	module := "ha-" + objectTag(ns)
	root := tree(t, map[string]string{"modules/.keep": ""})
	scenario.WriteTree(t, root, map[string]string{"modules/010-" + module + "/openapi/config-values.yaml": "type: object\n" +
		"additionalProperties: false\nproperties:\n  replicas: {type: integer, minimum: 1}\n"}, 0o644)
	env := append(webhookEnv(t, ns), "ADDON_OPERATOR_HA=true")
	a := startOperator(t, root, ns, append(env, "ADDON_OPERATOR_POD=replica-a")...)
	a.waitReady(t)
	bPort := scenario.Port(t)
	b := startOperator(t, root, ns, append(env, "ADDON_OPERATOR_POD=replica-b", "ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.2",
		"ADDON_OPERATOR_LISTEN_PORT="+strconv.Itoa(a.port), "ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_PORT="+strconv.Itoa(bPort),
		fmt.Sprintf("ADDON_OPERATOR_MODULECONFIG_WEBHOOK_URL=https://127.0.0.1:%d", bPort))...)
	b.waitRecord(t, "ModuleConfig webhook server started", nil)
	waitFor(t, "the follower's /readyz with the leader's 200", func() bool { code, _ := b.get(t, "/readyz"); return code == 200 })
	configuration := ns + "-" + configreview.Owner
	if url := webhookURL(t, configuration); url != envValue(env, "ADDON_OPERATOR_MODULECONFIG_WEBHOOK_URL") {
		t.Fatalf("configuration's URL %q, want the leader's", url)
	}
	if a.count("ModuleConfig webhook registered", nil) != 1 || b.count("ModuleConfig webhook registered", nil) != 0 {
		t.Fatalf("registered by the leader %d times, by the follower %d times", a.count("ModuleConfig webhook registered", nil),
			b.count("ModuleConfig webhook registered", nil))
	}
	verdict := review(t, envValue(env, "VALIDATING_WEBHOOK_CA"), bPort, moduleConfigJSON(module, `{"version":1,"settings":{"replicas":0}}`))
	if verdict.Allowed || !strings.Contains(verdict.Result.Message, "/"+valuesKey(t, module)+"/replicas: minimum") {
		t.Fatalf("the follower's review: %+v; want a denial naming the field", verdict)
	}
	a.stop(t)
	b.waitReady(t)
	if url := webhookURL(t, configuration); url != fmt.Sprintf("https://127.0.0.1:%d", bPort) || b.count("ModuleConfig webhook registered", nil) != 1 {
		t.Fatalf("after the takeover: configuration's URL %q, registered by the new leader %d times", url, b.count("ModuleConfig webhook registered", nil))
	}
}

func valuesKey(t *testing.T, module string) string {
	t.Helper()
	var key strings.Builder
	for i, part := range strings.Split(module, "-") {
		if i > 0 && part != "" {
			part = strings.ToUpper(part[:1]) + part[1:]
		}
		key.WriteString(part)
	}
	return key.String()
}

// webhookURL is the URL of the validating configuration's first webhook.
func webhookURL(t *testing.T, name string) string {
	t.Helper()
	c, err := kube.Client(t).AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil || len(c.Webhooks) == 0 || c.Webhooks[0].ClientConfig.URL == nil {
		t.Fatalf("configuration %s: %v %+v", name, err, c)
	}
	return strings.TrimSuffix(strings.TrimSuffix(*c.Webhooks[0].ClientConfig.URL, configreview.Binding("Ignore").Path()), "/")
}

func moduleConfigJSON(name, spec string) string {
	return `{"apiVersion":"addon-operator.io/v1alpha1","kind":"ModuleConfig","metadata":{"name":"` + name + `","generation":1},"spec":` + spec + `}`
}

// review posts an AdmissionReview of a CREATE of object to the
// ModuleConfig webhook server on port, trusting the CA file.
func review(t *testing.T, caFile string, port int, object string) *admissionv1.AdmissionResponse {
	t.Helper()
	ca, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	body, _ := json.Marshal(admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{UID: "u", Operation: admissionv1.Create, Object: runtime.RawExtension{Raw: []byte(object)}}})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Post(fmt.Sprintf("https://127.0.0.1:%d%s", port, configreview.Binding("Ignore").Path()), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out admissionv1.AdmissionReview
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Response == nil {
		t.Fatalf("review reply %d: %v", resp.StatusCode, err)
	}
	if out.Response.Result == nil {
		out.Response.Result = &metav1.Status{}
	}
	return out.Response
}
