package e2e_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Hooks written for the original, which accepts webhook bindings and
// serves none, work unchanged where the webhook servers have no
// certificate: the operator starts, the module with a validating binding
// converges and its hooks run; each owner's bindings are logged as not
// served, naming the missing file, and nothing is registered.
func TestWebhookBindingsWithoutCertificatesLeaveHooksAsUpstream(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"global-hooks/guard":          hook(`{"configVersion":"v1","onStartup":1,`+validatingKey("g.example.com", ns)+`"schedule":[]}`, `record started global`),
		"modules/values.yaml":         "guardedEnabled: true\n",
		"modules/001-guarded/hooks/v": hook(`{"configVersion":"v1","beforeHelm":1,`+validatingKey("m.example.com", ns)+`"schedule":[]}`, `record ran module`),
	})
	op := startSpec(t, root, ns, "VALIDATING_WEBHOOK_SERVER_CERT="+root+"/none/tls.crt")
	op.waitReady(t)
	if got := record(t, root, "global") + record(t, root, "module"); got != "started\nran\n" {
		t.Fatalf("hooks recorded %q", got)
	}
	for _, owner := range []string{"global", "guarded"} {
		if n := op.count("webhook bindings not served: no certificate", map[string]any{"owner": owner, "missing": root + "/none/tls.crt"}); n != 1 {
			t.Fatalf("%d WARNs for %s, want 1\n%s", n, owner, op.logText())
		}
	}
	client := kube.Client(t)
	list, err := client.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Items {
		for _, w := range c.Webhooks {
			if w.Name == "g.example.com" || w.Name == "m.example.com" {
				t.Fatalf("configuration %s registered without a certificate", c.Name)
			}
		}
	}
}
