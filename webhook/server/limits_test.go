package server_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
)

// rawPost sends a POST's headers alone on a TLS connection of its own,
// with Expect: 100-continue, and returns the first status line the server
// sends: "100 Continue" only if the handler starts reading the body.
func rawPost(t *testing.T, h *harness, path string, contentLength int64) string {
	t.Helper()
	conn := dialTLS(t, h)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", path, contentLength)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatalf("POST %s: no reply without the body: %v", path, err)
	}
	return strings.TrimSpace(line)
}

// A path no hook is bound to is answered from the head of its body
// alone (shell-operator's reply, with the request's uid): the client
// sends the head of a 60 MiB review and nothing more, and gets its
// answer; a served path's body is read (100 Continue).
func TestRoutingBeforeBody(t *testing.T) {
	h := start(t, serverConfig(webhooktest.Funcs{OnAdmit: allow}))
	h.d.Set("mod", deny(), nil)
	h.d.Ready("mod", "h.sh")
	head := `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"u9","object":{"data":"` +
		strings.Repeat("x", 64<<10)
	resp := headOnlyPost(t, h, "/mod/nobody-here", 60<<20, head)
	var reply map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("unknown path: %d %v", resp.StatusCode, err)
	}
	if r := response(reply); r["uid"] != "u9" || r["allowed"] != false ||
		!strings.Contains(fmt.Sprint(r["status"]), "no hook found for 'mod' 'nobody-here'") || reply["kind"] != "AdmissionReview" {
		t.Errorf("unknown path: %v", reply)
	}
	if line := rawPost(t, h, "/mod/deny-example-com", 100); line != "HTTP/1.1 100 Continue" {
		t.Errorf("served path: first reply %q, want 100 Continue (its body is read)", line)
	}
}

// headOnlyPost sends a POST's headers and the first bytes of its body,
// never the rest, and returns the server's reply.
func headOnlyPost(t *testing.T, h *harness, path string, contentLength int64, head string) *http.Response {
	t.Helper()
	conn := dialTLS(t, h)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, contentLength, head)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: no reply to the head of its body: %v", path, err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// dialTLS is a TLS connection to h's server, closed after the test, that
// gives up after 10 s.
func dialTLS(t *testing.T, h *harness) *tls.Conn {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(h.pki.CAPEM)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(h.base, "https://"), &tls.Config{RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// countingReader yields n bytes of JSON-ish filler, counting what was read.
type countingReader struct {
	left int64
	read atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), c.left))
	for i := range n {
		p[i] = ' '
	}
	c.left -= int64(n)
	c.read.Add(int64(n))
	return n, nil
}

// A body past the cap is refused with 413: by its Content-Length before
// a byte is read, and a chunked one once it passes the cap, the client
// having sent far less than all of it. The hook never runs.
func TestBodyCap(t *testing.T) {
	var ran atomic.Int32
	counting := func(ctx context.Context, a webhook.Admission, r json.RawMessage) ([]byte, error) {
		ran.Add(1)
		return allow(ctx, a, r)
	}
	cfg := serverConfig(webhooktest.Funcs{OnAdmit: counting})
	cfg.AdmissionMaxBytes = 1 << 20
	h := start(t, cfg)
	h.d.Set("mod", deny(), nil)
	h.d.Ready("mod", "h.sh")
	if line := rawPost(t, h, "/mod/deny-example-com", 60<<20); line != "HTTP/1.1 413 Request Entity Too Large" {
		t.Errorf("Content-Length 60 MiB: first reply %q, want 413 before any body", line)
	}
	body := &countingReader{left: 60 << 20}
	req, _ := http.NewRequest(http.MethodPost, h.base+"/mod/deny-example-com", io.NopCloser(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatalf("chunked 60 MiB: %v", err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(reply), "limit is 1048576 bytes") {
		t.Errorf("chunked 60 MiB: %s %s", resp.Status, reply)
	}
	// The rest sits in socket buffers at most: far less than the 60 MiB.
	if sent := body.read.Load(); sent > 16<<20 {
		t.Errorf("the client sent %d bytes of a body refused past 1 MiB", sent)
	}
	if code, reply := h.review(t, "/mod/deny-example-com", "u"); code != 200 || response(reply)["allowed"] != true || ran.Load() != 1 {
		t.Errorf("a small review after: %d %v, hook runs %d (want 1)", code, reply, ran.Load())
	}
	// A chunked review within the cap, read in several blocks, is whole.
	padded := `{"request":{"uid":"big","operation":"CREATE"},"pad":"` + strings.Repeat("x", 300<<10) + `"}`
	req, _ = http.NewRequest(http.MethodPost, h.base+"/mod/deny-example-com", io.NopCloser(strings.NewReader(padded)))
	req.Header.Set("Content-Type", "application/json")
	resp, err = h.client.Do(req)
	raw := scenario.Body(t, resp, err)
	var big map[string]any
	if err := json.Unmarshal(raw, &big); err != nil || response(big)["uid"] != "big" || response(big)["allowed"] != true {
		t.Errorf("a chunked review of 300 KiB: %s %s", resp.Status, raw)
	}
	t.Logf("chunked body refused after the client sent %d bytes", body.read.Load())
}

// Past the global bound on reviews in flight (2 here, whatever the hooks'
// slots), a review gets 503 at once; once one ends, reviews are served.
func TestInFlightBound(t *testing.T) {
	entered, unblock := make(chan struct{}, 8), make(chan struct{})
	blocked := func(ctx context.Context, a webhook.Admission, r json.RawMessage) ([]byte, error) {
		entered <- struct{}{}
		<-unblock
		return allow(ctx, a, r)
	}
	cfg := serverConfig(webhooktest.Funcs{OnAdmit: blocked})
	cfg.MaxInFlight = 2
	h := start(t, cfg)
	h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "busy", Kind: webhook.Validating, Concurrency: 8, TimeoutSeconds: 10}}, nil)
	h.d.Ready("mod", "h.sh")
	answered := make(chan int, 2)
	for i := range 2 {
		go func() {
			code, _ := h.review(t, "/mod/busy", fmt.Sprint(i))
			answered <- code
		}()
	}
	<-entered
	<-entered
	began := time.Now()
	code, body := h.post(t, "/mod/busy", "application/json", `{"request":{"uid":"third"}}`)
	if code != http.StatusServiceUnavailable || !strings.Contains(string(body), "webhook server busy: 2 reviews") {
		t.Errorf("third review: %d %s, want 503", code, body)
	}
	t.Logf("refused in %s", time.Since(began))
	close(unblock)
	for range 2 {
		if code := <-answered; code != http.StatusOK {
			t.Errorf("a review in flight got %d", code)
		}
	}
	if code, reply := h.review(t, "/mod/busy", "fourth"); code != 200 || response(reply)["allowed"] != true {
		t.Errorf("after the bound freed: %d %v", code, reply)
	}
}

// The bodies in flight are bounded too: with 1000 bytes for them all, a
// review of 600 bytes waiting for its hook leaves no room for another of
// 600 (503 at once), but enough for a small one.
func TestInFlightBytesBound(t *testing.T) {
	entered, unblock := make(chan string, 8), make(chan struct{})
	blocked := func(ctx context.Context, a webhook.Admission, r json.RawMessage) ([]byte, error) {
		var req struct{ UID string }
		_ = json.Unmarshal(r, &req)
		entered <- req.UID
		if req.UID == "big" {
			<-unblock
		}
		return allow(ctx, a, r)
	}
	cfg := serverConfig(webhooktest.Funcs{OnAdmit: blocked})
	cfg.MaxInFlight, cfg.MaxInFlightBytes, cfg.AdmissionMaxBytes, cfg.ConversionMaxBytes = 10, 1000, 1000, 1000
	h := start(t, cfg)
	h.d.Set("mod", []webhook.Admission{{Hook: "h.sh", Name: "busy", Kind: webhook.Validating, Concurrency: 8, TimeoutSeconds: 10}}, nil)
	h.d.Ready("mod", "h.sh")
	padded := func(uid string, size int) string {
		head := `{"request":{"uid":"` + uid + `"},"pad":"`
		return head + strings.Repeat("x", size-len(head)-2) + `"}`
	}
	answered := make(chan int, 1)
	go func() {
		code, _ := h.post(t, "/mod/busy", "application/json", padded("big", 600))
		answered <- code
	}()
	<-entered
	if code, body := h.post(t, "/mod/busy", "application/json", padded("second", 600)); code != http.StatusServiceUnavailable {
		t.Errorf("a second 600 bytes with 600 of 1000 in flight: %d %s, want 503", code, body)
	}
	if code, _ := h.post(t, "/mod/busy", "application/json", padded("small", 300)); code != http.StatusOK || <-entered != "small" {
		t.Errorf("300 bytes with 600 of 1000 in flight: %d, want it served", code)
	}
	close(unblock)
	if code := <-answered; code != http.StatusOK {
		t.Errorf("the big review: %d", code)
	}
}
