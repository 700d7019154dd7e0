package server_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/test/testpki"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/server"
)

type harness struct {
	d      *server.Dispatcher
	pki    *testpki.PKI
	base   string
	client *http.Client
}

// start serves an admission server of runner on loopback until the test
// ends.
func start(t testing.TB, cfg server.Config) *harness {
	t.Helper()
	pki, err := testpki.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Metrics = prometheus.NewRegistry()
	d, err := server.NewDispatcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := server.DefaultAdmission()
	s.ListenAddress, s.ListenPort, s.CertFile, s.KeyFile = "127.0.0.1", 0, pki.CertFile, pki.KeyFile
	base := webhooktest.Serve(t, s, d.Admission())
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.CAPEM)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 100}}
	t.Cleanup(client.CloseIdleConnections)
	return &harness{d: d, pki: pki, base: base, client: client}
}

// review posts an AdmissionReview with uid to path and returns the status
// code and the decoded reply.
func (h *harness) review(t testing.TB, path, uid string) (int, map[string]any) {
	t.Helper()
	body := fmt.Sprintf(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":%q,"operation":"CREATE"}}`, uid)
	code, raw := h.post(t, path, "application/json", body)
	var reply map[string]any
	if code == http.StatusOK {
		if err := json.Unmarshal(raw, &reply); err != nil {
			t.Fatalf("reply %s: %v", raw, err)
		}
	}
	return code, reply
}

func (h *harness) post(t testing.TB, path, contentType, body string) (int, []byte) {
	t.Helper()
	resp, err := h.client.Post(h.base+path, contentType, bytes.NewBufferString(body))
	raw := scenario.Body(t, resp, err)
	return resp.StatusCode, raw
}

func response(reply map[string]any) map[string]any {
	r, _ := reply["response"].(map[string]any)
	return r
}
