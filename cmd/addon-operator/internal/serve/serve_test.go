package serve_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/serve"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// bigHandler answers /big with 64 MB and reports how its writing ended.
func bigHandler(ended chan<- error) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) {
		chunk := make([]byte, 1<<20)
		var err error
		for i := 0; i < 64 && err == nil; i++ {
			_, err = w.Write(chunk)
		}
		ended <- err
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	return mux
}

// Three clients that hang: one never sends its request, one never reads
// a large answer, one stays idle after an answer. Each connection is
// closed by the server within its limit (so no goroutine is left for it),
// the writing handler gets an error, and the server keeps serving.
func TestHangingClientsAreCutOff(t *testing.T) {
	closed, ended := make(chan string, 16), make(chan error, 1)
	srv := serve.Server{Name: "test server", Handler: bigHandler(ended), Log: slog.New(slog.DiscardHandler),
		Limits: serve.Limits{ReadHeader: 200 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 200 * time.Millisecond, Shutdown: time.Second},
		ConnState: func(c net.Conn, s http.ConnState) {
			if s == http.StateClosed {
				closed <- c.RemoteAddr().String()
			}
		}}
	ln, stop := run(t, srv)

	silent := dial(t, ln)
	nonReader := dial(t, ln)
	if err := nonReader.(*net.TCPConn).SetReadBuffer(4096); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(nonReader, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	idle := dial(t, ln)
	if got := get(t, idle, "/ok"); got != "ok" {
		t.Fatalf("/ok answered %q", got)
	}
	want := map[string]bool{silent.LocalAddr().String(): true, nonReader.LocalAddr().String(): true, idle.LocalAddr().String(): true}
	for len(want) > 0 {
		select {
		case addr := <-closed:
			delete(want, addr)
		case <-time.After(10 * time.Second):
			t.Fatalf("connections not closed by the server: %v", want)
		}
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the handler wrote 64 MB to a client that reads nothing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler writing to a client that reads nothing never returned")
	}
	if got := get(t, dial(t, ln), "/ok"); got != "ok" {
		t.Fatalf("after the hanging clients /ok answered %q", got)
	}
	stop()
}

// run serves srv on a loopback port; stop shuts it down, failing the test
// if Run fails.
func run(t *testing.T, srv serve.Server) (net.Listener, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() { runErr <- srv.Run(ctx, ln) }()
	return ln, func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Fatalf("Run: %v", err)
		}
	}
}

func dial(t *testing.T, ln net.Listener) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends one keep-alive request on c and returns the body.
func get(t *testing.T, c net.Conn, path string) string {
	t.Helper()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	return strings.TrimSpace(string(scenario.Body(t, resp, err)))
}

// A request whose headers pass MaxHeaderBytes is refused with 431 before
// any handler; one within it is served.
func TestHeadersAreBounded(t *testing.T) {
	srv := serve.Server{Name: "test server", Handler: bigHandler(make(chan error, 1)), Log: slog.New(slog.DiscardHandler),
		Limits: serve.DefaultLimits()}
	ln, stop := run(t, srv)
	for size, want := range map[int]int{1 << 10: http.StatusOK, 256 << 10: http.StatusRequestHeaderFieldsTooLarge} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/ok", nil)
		req.Header.Set("Authorization", "Bearer "+strings.Repeat("x", size))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("a %d-byte header: %d, want %d", size, resp.StatusCode, want)
		}
	}
	stop()
}
