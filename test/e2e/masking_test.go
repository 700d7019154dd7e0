package e2e_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Markers of the masking test: a Secret's value in the chart, a
// `format: password` setting (in the ConfigMap, and a candidate in plan),
// and the values written into the cluster by hand.
const (
	secretMarker    = "secret-marker-5150"
	passwordMarker  = "pw-marker-5150"
	candidateMarker = "pw-marker-6160"
	liveSecret      = "live-secret-marker-5150"
	livePassword    = "live-pw-marker-5150"
)

// vaultTree: module vault, whose schema marks password `format: password`,
// with a Secret (stringData from the chart, data from a base64 marker) and
// a ConfigMap built from the password setting (in its data and inside an
// annotation, which drift shows unless it holds a password).
func vaultTree(t *testing.T) string {
	return tree(t, map[string]string{
		"modules/values.yaml":          "vaultEnabled: true\n",
		"modules/010-vault/Chart.yaml": "apiVersion: v2\nname: vault\nversion: 0.1.0\n",
		"modules/010-vault/openapi/config-values.yaml": "type: object\nproperties:\n" +
			"  password: {type: string, format: password}\n  user: {type: string}\n",
		"modules/010-vault/templates/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: vault-creds\n" +
			"stringData:\n  token: " + secretMarker + "\ndata:\n  key: " + b64(secretMarker+"-data") + "\n",
		"modules/010-vault/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vault-cm\n" +
			"  annotations:\n    dsn: postgres://app:{{ .Values.vault.password }}@db:5432\ndata:\n" +
			"  DB_PASSWORD: {{ .Values.vault.password | quote }}\n  DB_USER: {{ .Values.vault.user | quote }}\n",
	})
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// No Secret value and no `format: password` value is printed or served:
// the drift WARN and module why (after both objects were edited by hand),
// plan as text and JSON (a changed password shows as two masks), the debug
// socket's values and render, the flight recorder and the whole log show
// masks only; the release itself holds the real values.
func TestNoSecretValuesShown(t *testing.T) {
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"vault": "password: " + passwordMarker + "\nuser: app\n"})
	op := startSpec(t, vaultTree(t), ns, "ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL=500ms")
	op.waitReady(t)
	op.waitIdle(t)
	client := kube.Client(t)
	if got := cmData(t, client, ns, "vault-cm")["DB_PASSWORD"]; got != passwordMarker {
		t.Fatalf("helm was given a masked value: DB_PASSWORD=%q", got)
	}
	editVaultByHand(t, ns)
	cm := op.waitRecord(t, driftedMsg, map[string]any{"object": "ConfigMap/" + ns + "/vault-cm"})
	op.waitRecord(t, driftedMsg, map[string]any{"object": "Secret/" + ns + "/vault-creds"})

	shown := map[string]string{"drift WARN (ConfigMap)": fmt.Sprint(cm["fields"])}
	shown["module why"] = op.cli(t, "module", "why", "vault")
	shown["plan"], _ = runPlan(t, op, "--set", "vault.password="+candidateMarker)
	shown["plan -o json"], _ = runPlan(t, op, "-o", "json", "--set", "vault.password="+candidateMarker)
	shown["module values"] = op.cli(t, "module", "values", "vault", "-o", "json")
	shown["global values"] = op.cli(t, "module", "values", "--global", "-o", "json")
	shown["module render"] = op.cli(t, "module", "render", "vault")
	shown["actors --history module/vault"] = op.cli(t, "actors", "--history", "module/vault")
	shown["actors --history queue"] = op.cli(t, "actors", "--history", "queue")
	shown["log"] = op.logText()
	for what, text := range shown {
		for _, marker := range []string{secretMarker, b64(secretMarker), b64(secretMarker + "-data"), passwordMarker,
			candidateMarker, liveSecret, b64(liveSecret), livePassword} {
			if strings.Contains(text, marker) {
				t.Errorf("%s shows %q:\n%s", what, marker, grepLines(text, marker))
			}
		}
	}
	t.Logf("module why:\n%s\nplan:\n%s", shown["module why"], shown["plan"])
	for what, want := range map[string][]string{
		"drift WARN (ConfigMap)": {"data.DB_PASSWORD: " + mask.String(passwordMarker) + " → " + mask.String(livePassword) + " (live)",
			`metadata.annotations.dsn: "postgres://app:(14 bytes, sha256:`},
		"module why":    {"data.token: " + mask.String(secretMarker) + " → " + mask.String(liveSecret) + " (live)"},
		"plan":          {"-  DB_PASSWORD: " + mask.String(passwordMarker), "+  DB_PASSWORD: " + mask.String(candidateMarker)},
		"module values": {mask.String(passwordMarker)},
		"module render": {mask.String(secretMarker), mask.String(passwordMarker)},
	} {
		for _, w := range want {
			if !strings.Contains(shown[what], w) {
				t.Errorf("%s lacks %q:\n%s", what, w, shown[what])
			}
		}
	}
}

// editVaultByHand sets the Secret's token, the ConfigMap's password and its
// dsn annotation to other values, as `kubectl edit` would.
func editVaultByHand(t *testing.T, ns string) {
	t.Helper()
	ctx, client := context.Background(), kube.Client(t)
	s, err := client.CoreV1().Secrets(ns).Get(ctx, "vault-creds", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Data["token"] = []byte(liveSecret)
	if _, err := client.CoreV1().Secrets(ns).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "vault-cm", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["DB_PASSWORD"] = livePassword
	cm.Annotations["dsn"] = "edited"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
