package register_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/register"
)

// admitByName denies objects named bad-*, adds a label to others (for the
// mutating binding) and hangs for the slow one.
func admitByName(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error) {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, err
	}
	switch {
	case a.Name == "slow.example.com":
		<-ctx.Done()
		return nil, ctx.Err()
	case a.Kind == webhook.Mutating:
		patch := base64.StdEncoding.EncodeToString([]byte(`[{"op":"add","path":"/metadata/labels","value":{"mutated":"yes"}}]`))
		return []byte(`{"allowed":true,"patch":"` + patch + `"}`), nil
	case strings.HasPrefix(req.Name, "bad-"):
		return []byte(`{"allowed":false,"message":"name ` + req.Name + ` is not allowed"}`), nil
	}
	return []byte(`{"allowed":true}`), nil
}

func admissions(ns string) []webhook.Admission {
	inNS := &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}}
	rule := func(resource string) []admissionregistrationv1.RuleWithOperations {
		return []admissionregistrationv1.RuleWithOperations{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{resource}}}}
	}
	return []webhook.Admission{
		{Hook: "policy.sh", Name: "deny.example.com", Kind: webhook.Validating, Rules: rule("configmaps"), NamespaceSelector: inNS},
		{Hook: "policy.sh", Name: "slow.example.com", Kind: webhook.Validating, Rules: rule("secrets"), NamespaceSelector: inNS, TimeoutSeconds: 2},
		{Hook: "label.sh", Name: "label.example.com", Kind: webhook.Mutating, Rules: rule("configmaps"), NamespaceSelector: inNS},
	}
}

func TestAdmissionThroughAPIServer(t *testing.T) {
	ns := kube.Namespace(t)
	cfg := kube.Config(t)
	client := kubernetes.NewForConfigOrDie(cfg)
	d, admissionURL, _, ca := serve(t, webhooktest.Funcs{OnAdmit: admitByName})
	owner := "mod-" + ns
	reg := register.New(client, nil, "test-hooks", register.Endpoint{URL: admissionURL, CABundle: ca})
	ctx := context.Background()
	d.Set(owner, admissions(ns), nil)
	d.Ready(owner, "policy.sh")
	d.Ready(owner, "label.sh")
	if err := reg.Apply(ctx, owner, admissions(ns)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Remove(context.Background(), owner) })
	checkNoRewrite(t, client, reg, owner, ns)

	var denied error
	eventually(t, func() error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bad-one"}}
		_, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
		if err == nil {
			_ = client.CoreV1().ConfigMaps(ns).Delete(ctx, "bad-one", metav1.DeleteOptions{})
			return fmt.Errorf("bad-one was created")
		}
		denied = err
		return nil
	})
	if !strings.Contains(denied.Error(), "name bad-one is not allowed") {
		t.Errorf("denial: %v", denied)
	}
	good, err := client.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "good"}}, metav1.CreateOptions{})
	if err != nil || good.Labels["mutated"] != "yes" {
		t.Fatalf("good: %v, labels %v", err, good)
	}
	began := time.Now()
	_, err = client.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"}}, metav1.CreateOptions{})
	if took := time.Since(began); err == nil || took > 5*time.Second {
		t.Errorf("secret with a hung hook: %v after %s", err, took)
	} else {
		t.Logf("hung hook (timeoutSeconds 2): create failed after %s: %v", took.Round(time.Millisecond), err)
	}

	d.Remove(owner)
	if err := reg.Remove(ctx, owner); err != nil {
		t.Fatal(err)
	}
	name := register.ConfigurationName("test-hooks", owner)
	if _, err := client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("validating configuration after Remove: %v", err)
	}
	if _, err := client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("mutating configuration after Remove: %v", err)
	}
}

// checkNoRewrite applies the same bindings again and sees no write.
func checkNoRewrite(t *testing.T, client kubernetes.Interface, reg *register.Registrar, owner, ns string) {
	t.Helper()
	ctx := context.Background()
	name := register.ConfigurationName("test-hooks", owner)
	versions := func() string {
		v, err := client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Webhooks) != 2 || v.Webhooks[0].Name != "deny.example.com" || len(m.Webhooks) != 1 {
			t.Fatalf("webhooks %d validating (%s first), %d mutating", len(v.Webhooks), v.Webhooks[0].Name, len(m.Webhooks))
		}
		return v.ResourceVersion + "/" + m.ResourceVersion
	}
	before := versions()
	if err := reg.Apply(ctx, owner, admissions(ns)); err != nil {
		t.Fatal(err)
	}
	if after := versions(); after != before {
		t.Errorf("unchanged bindings rewrote the configurations: resourceVersions %s → %s", before, after)
	}
}

// eventually retries f until it succeeds (the apiserver picks up a new
// configuration within a second or so), or fails the test after 15s.
func eventually(t *testing.T, f func() error) {
	t.Helper()
	var last error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if last = f(); last == nil {
			return
		}
	}
	t.Fatalf("not within 15s: %v", last)
}
