package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/test/testpki"
)

// webhookEnv is the operator's environment of webhook servers on loopback
// with a certificate made now, registered in the URL form, with
// configurations named <ns>-<owner>; they are deleted when the test ends
// (after the operator stops), whatever the operator did; the ModuleConfig
// webhook's server is on loopback too, its configuration <ns>-moduleconfigs.
func webhookEnv(t *testing.T, ns string, owners ...string) []string {
	t.Helper()
	dir := t.TempDir()
	pki, err := testpki.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca, pki.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	admission, conversion, moduleConfigs := scenario.Port(t), scenario.Port(t), scenario.Port(t)
	client := kube.Client(t)
	t.Cleanup(func() {
		for _, owner := range append(owners, "moduleconfigs") {
			name := ns + "-" + owner
			_ = client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(context.Background(), name, metav1.DeleteOptions{})
			_ = client.AdmissionregistrationV1().MutatingWebhookConfigurations().Delete(context.Background(), name, metav1.DeleteOptions{})
		}
	})
	return []string{
		"VALIDATING_WEBHOOK_CONFIGURATION_NAME=" + ns,
		"VALIDATING_WEBHOOK_SERVER_CERT=" + pki.CertFile, "VALIDATING_WEBHOOK_SERVER_KEY=" + pki.KeyFile,
		"VALIDATING_WEBHOOK_CA=" + ca, "VALIDATING_WEBHOOK_LISTEN_ADDRESS=127.0.0.1",
		fmt.Sprintf("VALIDATING_WEBHOOK_LISTEN_PORT=%d", admission),
		"CONVERSION_WEBHOOK_SERVER_CERT=" + pki.CertFile, "CONVERSION_WEBHOOK_SERVER_KEY=" + pki.KeyFile,
		"CONVERSION_WEBHOOK_CA=" + ca, "CONVERSION_WEBHOOK_LISTEN_ADDRESS=127.0.0.1",
		fmt.Sprintf("CONVERSION_WEBHOOK_LISTEN_PORT=%d", conversion),
		fmt.Sprintf("ADDON_OPERATOR_WEBHOOK_URL=https://127.0.0.1:%d", admission),
		fmt.Sprintf("ADDON_OPERATOR_WEBHOOK_CONVERSION_URL=https://127.0.0.1:%d", conversion),
		"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_ADDRESS=127.0.0.1",
		fmt.Sprintf("ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_PORT=%d", moduleConfigs),
		fmt.Sprintf("ADDON_OPERATOR_MODULECONFIG_WEBHOOK_URL=https://127.0.0.1:%d", moduleConfigs),
	}
}

// inNamespace is a binding's namespace selector of ns alone (webhook
// configurations are cluster-wide: a test's must not touch the others').
func inNamespace(ns string) string {
	return `"namespace":{"labelSelector":{"matchLabels":{"kubernetes.io/metadata.name":"` + ns + `"}}}`
}

// configurationExists tells whether the validating configuration name
// exists.
func configurationExists(t *testing.T, client kubernetes.Interface, name string) bool {
	t.Helper()
	_, err := client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

// retryUntil retries f until it returns nil: the apiserver picks up a
// webhook configuration's change within a second or so, and tells nobody.
func retryUntil(t *testing.T, what string, f func() error) {
	t.Helper()
	var last error
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if last = f(); last == nil {
			return
		}
	}
	t.Fatalf("%s: not within 20s: %v", what, last)
}

// errorHas is nil when err is an error whose text holds want.
func errorHas(err error, want string) error {
	if err == nil {
		return fmt.Errorf("no error, want one with %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		return fmt.Errorf("error %q, want one with %q", err, want)
	}
	return nil
}

// deleteCRDAtEnd deletes the CRD name when the test ends.
func deleteCRDAtEnd(t *testing.T, name string) {
	t.Helper()
	client := apiextensionsclient.NewForConfigOrDie(kube.Config(t))
	t.Cleanup(func() {
		_ = client.ApiextensionsV1().CustomResourceDefinitions().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
}
