package e2e_test

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// envValue is the value of name among env's KEY=VALUE items.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v
		}
	}
	return ""
}

// healthz is nil when the TLS server at addr, its certificate signed by
// the CA in caFile, answers GET /healthz with 200.
func healthz(addr, caFile string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	client := &http.Client{Timeout: 5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	resp, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /healthz: %s", resp.Status)
	}
	return nil
}

// There is no "enabled" setting: each webhook server starts only when some
// hook declares its kind of binding (spec/WEBHOOKS.md §1). With a
// validating binding and no conversion one, the admission server answers
// GET /healthz with 200 and nothing listens on the conversion port.
func TestWebhookServerStartsOnlyForItsBindings(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":         "guardedEnabled: true\n",
		"modules/001-guarded/hooks/v": hook(`{"configVersion":"v1","beforeHelm":1,`+validatingKey("only.servers.example.com", ns)+`"schedule":[]}`, `true`),
	})
	env := webhookEnv(t, ns, "guarded")
	op := startSpec(t, root, ns, env...)
	op.waitReady(t)
	admission := net.JoinHostPort("127.0.0.1", envValue(env, "VALIDATING_WEBHOOK_LISTEN_PORT"))
	retryUntil(t, "the admission server answers /healthz", func() error {
		return healthz(admission, envValue(env, "VALIDATING_WEBHOOK_CA"))
	})
	conversion := net.JoinHostPort("127.0.0.1", envValue(env, "CONVERSION_WEBHOOK_LISTEN_PORT"))
	if conn, err := net.DialTimeout("tcp", conversion, 2*time.Second); err == nil {
		conn.Close()
		t.Fatalf("something listens on the conversion port %s, and no hook has a conversion binding\n%s", conversion, op.logText())
	}
}
