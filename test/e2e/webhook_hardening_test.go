package e2e_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/webhook"
)

// hardenedServer is an operator whose admission server serves one
// validating binding of module guarded (its hook never runs: no pod is
// created), at addr with its CA in pool.
type hardenedServer struct {
	op   *operator
	addr string
	pool *x509.CertPool
	path string
}

func startHardened(t *testing.T, env ...string) *hardenedServer {
	t.Helper()
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":         "guardedEnabled: true\n",
		"modules/001-guarded/hooks/v": hook(`{"configVersion":"v1","beforeHelm":1,`+validatingKey("hardened.servers.example.com", ns)+`"schedule":[]}`, `true`),
	})
	wenv := append(webhookEnv(t, ns, "guarded"), env...)
	op := startSpec(t, root, ns, wenv...)
	op.waitReady(t)
	s := &hardenedServer{op: op, addr: net.JoinHostPort("127.0.0.1", envValue(wenv, "VALIDATING_WEBHOOK_LISTEN_PORT")),
		pool: x509.NewCertPool(), path: webhook.AdmissionPath("guarded", "hardened.servers.example.com")}
	ca, err := os.ReadFile(envValue(wenv, "VALIDATING_WEBHOOK_CA"))
	if err != nil {
		t.Fatal(err)
	}
	s.pool.AppendCertsFromPEM(ca)
	retryUntil(t, "the admission server answers /healthz", func() error { return healthz(s.addr, envValue(wenv, "VALIDATING_WEBHOOK_CA")) })
	return s
}

// handshake dials the server with cfg (its RootCAs set) and returns the
// connection's state.
func (s *hardenedServer) handshake(cfg *tls.Config) (tls.ConnectionState, error) {
	cfg.RootCAs = s.pool
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", s.addr, cfg)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	defer conn.Close()
	return conn.ConnectionState(), nil
}

// heapInUse is the operator's go_memstats_heap_inuse_bytes, from its
// /metrics.
func heapInUse(t *testing.T, op *operator) float64 {
	t.Helper()
	const series = "go_memstats_heap_inuse_bytes"
	code, body := op.get(t, "/metrics")
	if code != http.StatusOK || !strings.Contains(body, "\n"+series+" ") {
		t.Fatalf("GET /metrics: %d, no %s", code, series)
	}
	return seriesValue(body, series)
}

// By default ALPN offered h2 and http/1.1 settles on http/1.1; TLS 1.1
// and TLS 1.2 with only CBC suites are refused, TLS 1.2 with an ECDHE-AEAD
// suite and TLS 1.3 are served. With ADDON_OPERATOR_WEBHOOK_HTTP2=true the
// server picks h2 and answers over it.
func TestWebhookServerTLSAndHTTP2(t *testing.T) {
	s := startHardened(t)
	state, err := s.handshake(&tls.Config{NextProtos: []string{"h2", "http/1.1"}})
	if err != nil || state.NegotiatedProtocol != "http/1.1" {
		t.Errorf("ALPN h2, http/1.1: negotiated %q, %v; want http/1.1", state.NegotiatedProtocol, err)
	}
	if _, err := s.handshake(&tls.Config{MinVersion: tls.VersionTLS11, MaxVersion: tls.VersionTLS11}); err == nil {
		t.Error("a TLS 1.1 client was served")
	}
	cbc := []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, tls.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
		tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
		tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
		tls.TLS_RSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_AES_256_CBC_SHA, tls.TLS_RSA_WITH_AES_128_CBC_SHA256}
	if _, err := s.handshake(&tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: cbc}); err == nil {
		t.Error("a TLS 1.2 client offering only CBC suites was served")
	}
	state, err = s.handshake(&tls.Config{MaxVersion: tls.VersionTLS12,
		CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}})
	if err != nil || state.Version != tls.VersionTLS12 {
		t.Errorf("TLS 1.2 with ECDHE-GCM: %v (version %x)", err, state.Version)
	}
	if state, err = s.handshake(&tls.Config{}); err != nil || state.Version != tls.VersionTLS13 {
		t.Errorf("TLS 1.3: %v (version %x)", err, state.Version)
	}

	h2 := startHardened(t, "ADDON_OPERATOR_WEBHOOK_HTTP2=true")
	if state, err := h2.handshake(&tls.Config{NextProtos: []string{"h2", "http/1.1"}}); err != nil || state.NegotiatedProtocol != "h2" {
		t.Errorf("with ADDON_OPERATOR_WEBHOOK_HTTP2=true: negotiated %q, %v; want h2", state.NegotiatedProtocol, err)
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: h2.pool}, ForceAttemptHTTP2: true}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport, Timeout: 5 * time.Second}).Get("https://" + h2.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("GET /healthz over h2: %s %s", resp.Proto, resp.Status)
	}
}

// rawBody posts size bytes to path with a Content-Length, writing the body
// while it reads the reply; it returns the reply's status line and how
// many body bytes the server took before it answered.
func (s *hardenedServer) rawBody(t *testing.T, path string, size int64) (string, int64) {
	t.Helper()
	conn, err := tls.Dial("tcp", s.addr, &tls.Config{RootCAs: s.pool})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, size)
	var written atomic.Int64
	go func() {
		chunk := make([]byte, 64<<10)
		for left := size; left > 0; {
			n, err := conn.Write(chunk[:min(int64(len(chunk)), left)])
			written.Add(int64(n))
			left -= int64(n)
			if err != nil {
				return
			}
		}
	}()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatalf("POST %d bytes to %s: no reply: %v", size, path, err)
	}
	return strings.TrimSpace(line), written.Load()
}

// A 60 MiB POST to a hook's path gets 413 (its Content-Length is past the
// 8 MiB cap: nothing of it is read) and the operator's heap does not grow
// by 8 MiB; a chunked one gets 413 once past the cap, having cost the cap;
// a path no hook is bound to gets shell-operator's denied review whatever
// its size, from the head of its body.
func TestWebhookBodyCap(t *testing.T) {
	s := startHardened(t)
	s.op.waitIdle(t)
	before := heapInUse(t, s.op)
	line, sent := s.rawBody(t, s.path, 60<<20)
	if line != "HTTP/1.1 413 Request Entity Too Large" {
		t.Fatalf("60 MiB with Content-Length: %q, want 413", line)
	}
	after := heapInUse(t, s.op)
	t.Logf("60 MiB POST (Content-Length): 413 after the client wrote %d bytes; heap in use %.1f MiB -> %.1f MiB (%+.1f MiB)",
		sent, before/(1<<20), after/(1<<20), (after-before)/(1<<20))
	if after-before >= 8<<20 {
		t.Errorf("heap in use grew by %.1f MiB on a refused 60 MiB POST, want < 8 MiB", (after-before)/(1<<20))
	}
	// A path no hook is bound to is answered from the head of the body
	// (shell-operator's denied review), the rest never read.
	if line, _ := s.rawBody(t, "/guarded/nobody-here", 60<<20); line != "HTTP/1.1 200 OK" {
		t.Errorf("60 MiB to a path no hook is bound to: %q, want 200 and a denied review", line)
	}
	if grown := heapInUse(t, s.op) - before; grown >= 8<<20 {
		t.Errorf("heap in use grew by %.1f MiB after 60 MiB to a path no hook serves, want < 8 MiB", grown/(1<<20))
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.pool}}
	defer transport.CloseIdleConnections()
	// An io.NopCloser hides the length: the body goes chunked.
	req, _ := http.NewRequest(http.MethodPost, "https://"+s.addr+s.path, io.NopCloser(strings.NewReader(strings.Repeat(" ", 60<<20))))
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Transport: transport, Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("chunked 60 MiB: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked 60 MiB: %s, want 413", resp.Status)
	}
	chunked := heapInUse(t, s.op)
	t.Logf("60 MiB POST (chunked): 413; heap in use then %.1f MiB (%+.1f MiB from the start)", chunked/(1<<20), (chunked-before)/(1<<20))
	// A chunked body is read up to the cap (8 MiB) before it is refused:
	// that much, and a block, not the 60 MiB or a doubled buffer's garbage.
	if chunked-after >= 12<<20 {
		t.Errorf("heap in use grew by %.1f MiB on a refused chunked 60 MiB POST, want < 12 MiB (the 8 MiB cap and blocks)", (chunked-after)/(1<<20))
	}
	if code, body := s.op.get(t, "/metrics"); !strings.Contains(body, `webhook_requests_refused_total{reason="too_large",server="admission"} 2`) {
		t.Errorf("refused reviews not counted as too_large (2): %d\n%s", code, grepLines(body, "webhook_requests_refused"))
	}
}

// junk opens n connections of three kinds and holds them: TCP only (no
// TLS handshake), a TLS record header and no more (a handshake left
// half-way), and TLS done with a request's first header line only. It
// returns the connections of the last kind.
func junk(t *testing.T, s *hardenedServer, n int) []net.Conn {
	t.Helper()
	var slow []net.Conn
	for i := range n {
		var conn net.Conn
		var err error
		switch i % 3 {
		case 0:
			conn, err = net.Dial("tcp", s.addr)
		case 1:
			if conn, err = net.Dial("tcp", s.addr); err == nil {
				_, err = conn.Write([]byte{0x16, 0x03, 0x01, 0x02, 0x00}) // a ClientHello of 512 bytes follows, never
			}
		case 2:
			if conn, err = tls.Dial("tcp", s.addr, &tls.Config{RootCAs: s.pool}); err == nil {
				_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: webhook\r\n", s.path)
				slow = append(slow, conn)
			}
		}
		if err != nil {
			t.Fatalf("junk connection %d: %v", i, err)
		}
		t.Cleanup(func() { conn.Close() })
	}
	return slow
}

// 500 junk connections held open do not delay a real review: the
// apiserver's call for a ConfigMap is denied by the hook well within its
// 10s timeout; the connections stuck in their headers are closed by the
// server at the read header timeout (5s), not held.
func TestWebhookJunkConnections(t *testing.T) {
	op, _, ns, _, client, _ := startGuard(t)
	s := &hardenedServer{op: op, addr: net.JoinHostPort("127.0.0.1", envValue(op.cmd.Env, "VALIDATING_WEBHOOK_LISTEN_PORT")),
		pool: x509.NewCertPool(), path: webhook.AdmissionPath("guard", "policy.guard.example.com")}
	ca, err := os.ReadFile(envValue(op.cmd.Env, "VALIDATING_WEBHOOK_CA"))
	if err != nil {
		t.Fatal(err)
	}
	s.pool.AppendCertsFromPEM(ca)
	opened := time.Now()
	slow := junk(t, s, 500)
	t.Logf("500 junk connections opened in %s", time.Since(opened))
	began := time.Now()
	_, err = client.CoreV1().ConfigMaps(ns).Create(context.Background(), labelled("deny-junk", "yes"), metav1.CreateOptions{})
	took := time.Since(began)
	if err := errorHas(err, "denied by the guard: deny-junk"); err != nil {
		t.Fatalf("the real review with 500 junk connections: %v (after %s)", err, took)
	}
	t.Logf("real review answered by the hook in %s with 500 junk connections open", took)
	if took >= 10*time.Second {
		t.Errorf("the real review took %s, past its 10s timeout", took)
	}
	conn := slow[0]
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Read(make([]byte, 1))
	if closedAfter := time.Since(opened); err == nil || closedAfter > 15*time.Second {
		t.Errorf("a connection stuck in its headers: read %v after %s; want it closed by the server within the read header timeout", err, closedAfter)
	} else {
		t.Logf("the server closed a connection stuck in its headers after %s (%v)", closedAfter, err)
	}
}
