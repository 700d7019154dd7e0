package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
)

func allow(context.Context, webhook.Admission, json.RawMessage) ([]byte, error) {
	return []byte(`{"allowed":true}`), nil
}

func deny() []webhook.Admission {
	return []webhook.Admission{{Hook: "h.sh", Name: "deny.example.com", Kind: webhook.Validating}}
}

func TestHTTP(t *testing.T) {
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: allow}))
	h.d.Set("mod", deny(), nil)
	h.d.Ready("mod", "h.sh")
	resp, err := h.client.Get(h.base + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	if code, _ := h.post(t, "/mod/deny-example-com", "text/plain", "{}"); code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", code)
	}
	if code, body := h.post(t, "/mod/deny-example-com", "application/json", "{"); code != 400 || !strings.Contains(string(body), "Invalid JSON payload") {
		t.Errorf("bad JSON: %d %s", code, body)
	}
	if code, body := h.post(t, "/mod/deny-example-com", "application/json", `{"kind":"AdmissionReview"}`); code != 400 || !strings.Contains(string(body), "Missing parameters: request") {
		t.Errorf("no request: %d %s", code, body)
	}
	code, reply := h.review(t, "/mod/deny-example-com", "u1")
	if code != 200 || response(reply)["allowed"] != true || response(reply)["uid"] != "u1" || reply["request"] != nil || reply["kind"] != "AdmissionReview" {
		t.Errorf("review: %d %v", code, reply)
	}
	code, reply = h.review(t, "/mod/other", "u2")
	if msg := fmt.Sprint(response(reply)["status"]); code != 200 || response(reply)["uid"] != "u2" ||
		!strings.Contains(msg, "handle AdmissionReview: no hook found for 'mod' 'other'") {
		t.Errorf("no hook: %d %v", code, reply)
	}
	h.d.Remove("mod")
	if _, reply = h.review(t, "/mod/deny-example-com", "u3"); response(reply)["allowed"] != false {
		t.Errorf("removed owner still served: %v", reply)
	}
}

func TestCertificateRotation(t *testing.T) {
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: allow}))
	served := func() string {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(h.pki.CAPEM)
		conn, err := tls.Dial("tcp", strings.TrimPrefix(h.base, "https://"), &tls.Config{RootCAs: pool})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].Subject.CommonName
	}
	if cn := served(); cn != "webhook-1" {
		t.Fatalf("served %q", cn)
	}
	if err := h.pki.Issue("webhook-2"); err != nil {
		t.Fatal(err)
	}
	if cn := served(); cn != "webhook-2" {
		t.Errorf("after rotation served %q, want webhook-2", cn)
	}
}

func TestTimeout(t *testing.T) {
	hung := func(ctx context.Context, _ webhook.Admission, _ json.RawMessage) ([]byte, error) {
		time.Sleep(3 * time.Second) // a Runner that ignores its context
		return []byte(`{"allowed":true}`), nil
	}
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: hung}))
	h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "slow", Kind: webhook.Validating, TimeoutSeconds: 1}}, nil)
	h.d.Ready("mod", "h.sh")
	began := time.Now()
	_, reply := h.review(t, "/mod/slow", "u")
	took := time.Since(began)
	if response(reply)["allowed"] != false || !strings.Contains(fmt.Sprint(response(reply)["status"]), "did not answer within 1s") {
		t.Errorf("reply %v", reply)
	}
	if took < time.Second || took >= 3*time.Second {
		t.Errorf("replied after %s, want after the 1s timeout and before the hung runner returns (3s)", took)
	}
	t.Logf("hung hook answered after %s", took)
}

// Until Ready, a review waits at the gate: past its timeout it gets the
// failure reply without the hook having run; after Ready the hook answers.
func TestSynchronizationGate(t *testing.T) {
	var ran atomic.Int32
	counting := func(ctx context.Context, a webhook.Admission, r json.RawMessage) ([]byte, error) {
		ran.Add(1)
		return allow(ctx, a, r)
	}
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: counting}))
	h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "gated", Kind: webhook.Validating, TimeoutSeconds: 1}}, nil)
	if _, reply := h.review(t, "/mod/gated", "u1"); response(reply)["allowed"] != false || ran.Load() != 0 {
		t.Errorf("before Ready: reply %v, hook runs %d; want the failure reply and none", reply, ran.Load())
	}
	h.d.Ready("mod", "h.sh")
	if _, reply := h.review(t, "/mod/gated", "u2"); response(reply)["allowed"] != true || ran.Load() != 1 {
		t.Errorf("after Ready: reply %v, hook runs %d", reply, ran.Load())
	}
}

func TestConcurrencyBound(t *testing.T) {
	var running, most atomic.Int32
	busy := func(context.Context, webhook.Admission, json.RawMessage) ([]byte, error) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return []byte(`{"allowed":true}`), nil
	}
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: busy}))
	h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "busy", Kind: webhook.Validating, Concurrency: 4}}, nil)
	h.d.Ready("mod", "h.sh")
	var wg sync.WaitGroup
	var allowed atomic.Int32
	for i := range 50 {
		wg.Go(func() {
			if _, reply := h.review(t, "/mod/busy", fmt.Sprint(i)); response(reply)["allowed"] == true {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 50 || most.Load() > 4 {
		t.Errorf("allowed %d of 50, at most %d runs at once (bound 4)", allowed.Load(), most.Load())
	}
	t.Logf("50 requests, concurrency 4: at most %d runs at once", most.Load())
}

// A connection that has sent no request yet (the apiserver opens spare
// ones) does not hold a shutdown to its grace: Serve returns without an
// error (start's cleanup checks it) though the connection stays open.
func TestShutdownClosesFreshConnections(t *testing.T) {
	var conns []io.Closer
	t.Cleanup(func() {
		for _, c := range conns {
			_ = c.Close()
		}
	})
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: allow}))
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(h.pki.CAPEM)
	for range 3 {
		// The handshake done, the server has accepted it; no request.
		conn, err := tls.Dial("tcp", strings.TrimPrefix(h.base, "https://"), &tls.Config{RootCAs: pool})
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
	}
}
