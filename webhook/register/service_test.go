package register_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/register"
)

// The Service form, as the apiserver stores it: each webhook of the
// module's configurations calls the Service in the operator's namespace on
// port 443 at /<owner>/<SafeURLString(name)>, with the CA bundle; the
// configurations are named <configurationName>-<owner>.
func TestServiceFormAsStored(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	owner, ca := "svc-"+ns, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
	reg := register.New(client, nil, "shell-operator-hooks",
		register.Endpoint{Namespace: ns, ServiceName: "shell-operator-validating-svc", CABundle: ca})
	ctx := context.Background()
	if err := reg.Apply(ctx, owner, admissions(ns)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Remove(context.Background(), owner) })
	v, err := client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(ctx, "shell-operator-hooks-"+owner, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, "shell-operator-hooks-"+owner, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Webhooks) != 2 || v.Webhooks[0].Name != "deny.example.com" || v.Webhooks[1].Name != "slow.example.com" || len(m.Webhooks) != 1 {
		t.Fatalf("webhooks: validating %d, mutating %d", len(v.Webhooks), len(m.Webhooks))
	}
	for _, wh := range []struct {
		name string
		got  func() (string, string, string, int32, []byte)
	}{
		{"deny.example.com", func() (string, string, string, int32, []byte) {
			s := v.Webhooks[0].ClientConfig.Service
			return s.Namespace, s.Name, *s.Path, *s.Port, v.Webhooks[0].ClientConfig.CABundle
		}},
		{"label.example.com", func() (string, string, string, int32, []byte) {
			s := m.Webhooks[0].ClientConfig.Service
			return s.Namespace, s.Name, *s.Path, *s.Port, m.Webhooks[0].ClientConfig.CABundle
		}},
	} {
		gotNS, gotName, path, port, bundle := wh.got()
		t.Logf("%s: service %s/%s:%d%s", wh.name, gotNS, gotName, port, path)
		if gotNS != ns || gotName != "shell-operator-validating-svc" || path != webhook.AdmissionPath(owner, wh.name) ||
			port != 443 || string(bundle) != string(ca) {
			t.Errorf("%s: service %s/%s path %s port %d bundle %q", wh.name, gotNS, gotName, path, port, bundle)
		}
	}
}
