package debugapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

var (
	at      = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	discard = slog.New(slog.DiscardHandler)
)

// filled is a board as a running operator has it: two modules (b's dir
// dangling), a queued task, hook runs, values with patches, snapshots.
func filled() *board.Board {
	b := board.New()
	b.SetQueues(messages.QueueSnapshot{At: at, Queues: []messages.QueueState{{Name: "main", Tasks: []messages.Task{
		{ID: 7, Queue: "main", Kind: messages.TaskModuleRun, Owner: "module/a", Module: "a", Reason: "config changed", QueuedAt: at}}}}})
	b.SetModule(board.ModuleState{Name: "b", Phase: "Failed", LastError: "helm: boom"})
	b.SetModule(board.ModuleState{Name: "a", Enabled: true, Phase: "Ready", Revision: 3, StartupDone: true, Tasks: 4})
	b.SetDirErrors(map[string]string{"b": "dangling symlink"})
	b.SetConfig(board.ConfigState{ConfigMap: "ns/addon-operator", Missing: true, Since: at.Format(time.RFC3339)})
	b.RecordHookRun("global", "g.sh", 3, nil)
	b.RecordHookRun("module/a", "x.sh", 1, errors.New("exit status 1"))
	b.SetGlobal(values.Snapshot{Key: values.GlobalKey, Config: map[string]any{"p": 1.0}, Values: map[string]any{"p": 1.0, "q": 2.0}}, nil)
	b.SetEnabledModules([]string{"a"})
	for _, m := range []string{"a", "b"} {
		b.SetModuleValues(m, values.Snapshot{Key: m, Config: map[string]any{"x": 1.0}, Values: map[string]any{"x": 1.0, "y": 2.0}})
	}
	b.SetPatches("a", json.RawMessage(`[{"op":"add","path":"/a/y","value":2}]`))
	pods := board.Objects{}.
		With("ns/p1", bctx.ObjectAndFilterResult{Object: json.RawMessage(`{"kind":"Pod"}`), FilterResult: json.RawMessage(`"one"`)}).
		With("ns/p0", bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(`"zero"`)})
	b.SetSnapshot("module/a", "h.sh", "pods", pods)
	b.SetSnapshot("global", "g.sh", "cms", board.Objects{})
	return b
}

// render renders module a; b's chart fails.
func render(_ context.Context, module string) (string, error) {
	if module == "b" {
		return "", errors.New("template: cm.yaml: boom")
	}
	return "kind: ConfigMap\nmetadata:\n  name: " + module + "\n", nil
}

// serve runs the debug API of b on a unix socket until the test ends and
// returns the socket's path.
func serve(t *testing.T, b *board.Board) (string, *actor.PID) {
	kit := actortest.New(t)
	pid := kit.Spawn("idle", func() actor.Actor { return actor.ReceiveFunc(func(actor.Context) {}) })
	return serveKit(t, kit, b), pid
}

// serveKit runs the debug API of b, with kit's inspector, on a unix socket
// until the test ends and returns the socket's path.
func serveKit(t *testing.T, kit *actortest.Kit, b *board.Board) string {
	path := filepath.Join(t.TempDir(), "debug", "debug.socket")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h := debugapi.NewHandler(debugapi.Options{Board: b, Inspector: kit.Inspector, Render: render})
	go func() { done <- debugapi.Serve(ctx, path, h, discard) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	waitListening(t, path, done)
	return path
}

// waitListening waits until the socket accepts a connection, failing when
// Serve returned instead.
func waitListening(t *testing.T, path string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		conn, err := net.Dial("unix", path)
		if err == nil {
			conn.Close()
			return
		}
		select {
		case err := <-done:
			t.Fatalf("Serve returned before listening: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not listening after a minute: %v", path, err)
		}
	}
}

// get answers status, content type and body of path on the socket.
func get(t *testing.T, socket, path string) (int, string, string) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}}}
	resp, err := c.Get("http://operator" + path)
	body := scenario.Body(t, resp, err)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

func TestEndpoints(t *testing.T) {
	socket, _ := serve(t, filled())
	tests := []struct{ path, want string }{
		{"/queue", `{"at":"2026-11-24T12:00:00Z","queues":[{"name":"main","tasks":[{"id":7,"queue":"main","kind":"` +
			string(messages.TaskModuleRun) + `","owner":"module/a","module":"a","reason":"config changed","queuedAt":"2026-11-24T12:00:00Z"}]}]}`},
		{"/modules", `[{"name":"a","enabled":true,"phase":"Ready","revision":3,"startupDone":true,"tasks":4},` +
			`{"name":"b","enabled":false,"phase":"Failed","lastError":"helm: boom","startupDone":false,"tasks":0,"dirError":"dangling symlink"}]`},
		{"/config", `{"configMap":"ns/addon-operator","missing":true,"since":"2026-11-24T12:00:00Z"}`},
		{"/hooks", `{"global:g.sh":{"runs":1,"failures":0,"contexts":3},` +
			`"module/a:x.sh":{"runs":1,"failures":1,"lastError":"exit status 1","contexts":1}}`},
		{"/global/values", `{"config":{"p":1},"values":{"p":1,"q":2,"enabledModules":["a"]},"patches":[]}`},
		{"/modules/a/values", `{"config":{"x":1},"values":{"x":1,"y":2},"patches":[{"op":"add","path":"/a/y","value":2}]}`},
		{"/modules/b/values", `{"config":{"x":1},"values":{"x":1,"y":2},"patches":[]}`},
		{"/snapshots?owner=module/a&hook=h.sh", `{"pods":[{"object":null,"filterResult":"zero"},{"object":{"kind":"Pod"},"filterResult":"one"}]}`},
		{"/snapshots?hook=g.sh", `{}`}, // owner global; a binding with no objects
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			status, ctype, body := get(t, socket, tt.path)
			if status != http.StatusOK || ctype != "application/json" {
				t.Fatalf("status %d, content type %q: %s", status, ctype, body)
			}
			scenario.JSONEqual(t, tt.path, body, tt.want)
		})
	}
}

func TestErrors(t *testing.T) {
	socket, _ := serve(t, filled())
	tests := []struct {
		path   string
		status int
		names  string
	}{
		{"/modules/nope/values", http.StatusNotFound, `no module "nope"`},
		{"/modules/nope/render", http.StatusNotFound, `no module "nope"`},
		{"/modules/b/render", http.StatusBadRequest, "template: cm.yaml: boom"},
		{"/snapshots?hook=nope.sh", http.StatusBadRequest, `hook "nope.sh" of global`},
		{"/snapshots?owner=module/a&hook=g.sh", http.StatusBadRequest, `hook "g.sh" of module/a`},
		{"/no-such-endpoint", http.StatusNotFound, "404 page not found"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			status, _, body := get(t, socket, tt.path)
			if status != tt.status || !strings.Contains(body, tt.names) {
				t.Fatalf("status %d body %q, want %d naming %q", status, body, tt.status, tt.names)
			}
		})
	}
}

func TestRenderAndActors(t *testing.T) {
	socket, pid := serve(t, filled())
	status, ctype, body := get(t, socket, "/modules/a/render")
	if status != http.StatusOK || ctype != "text/yaml" || body != "kind: ConfigMap\nmetadata:\n  name: a\n" {
		t.Fatalf("render: status %d, content type %q:\n%s", status, ctype, body)
	}
	status, _, body = get(t, socket, "/actors")
	var actors []struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(body), &actors); status != http.StatusOK || err != nil {
		t.Fatalf("actors: status %d, %v: %s", status, err, body)
	}
	found := false
	for _, a := range actors {
		found = found || a.Path == pid.Id
	}
	if !found {
		t.Fatalf("actors %s does not list the running actor %s", body, pid.Id)
	}
}

// The client reads an answer, and names the path and the server's message
// on an error, the socket and DEBUG_UNIX_SOCKET when nothing listens.
func TestClient(t *testing.T) {
	socket, _ := serve(t, filled())
	c := debugapi.NewClient(socket)
	body, err := c.Get(context.Background(), "/config")
	if err != nil {
		t.Fatal(err)
	}
	scenario.JSONEqual(t, "answer", string(body), `{"configMap":"ns/addon-operator","missing":true,"since":"2026-11-24T12:00:00Z"}`)
	if _, err := c.Get(context.Background(), "/modules/nope/values"); err == nil || !strings.Contains(err.Error(), `/modules/nope/values: no module "nope"`) {
		t.Fatalf("error %v, want the path and the server's message", err)
	}
	missing := filepath.Join(t.TempDir(), "none.socket")
	if _, err := debugapi.NewClient(missing).Get(context.Background(), "/queue"); err == nil ||
		!strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "DEBUG_UNIX_SOCKET") {
		t.Fatalf("no operator: %v", err)
	}
}

// Serve makes the socket's dir, replaces a stale socket and leaves the
// socket to its owner (mode 0600).
func TestServeSocket(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "debug")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "debug.socket")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close() // leaves the socket file, as a killed operator does
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- debugapi.Serve(ctx, path, debugapi.NewHandler(debugapi.Options{Board: filled()}), discard)
	}()
	waitListening(t, path, done)
	waitMode(t, path)
	if status, _, body := get(t, path, "/config"); status != http.StatusOK {
		t.Fatalf("after replacing a stale socket: status %d %s", status, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after its context ended: %v", err)
	}
}

// waitMode waits until path is a socket of mode 0600 (Serve listens, then
// sets the mode), failing after ten seconds.
func waitMode(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := os.Stat(path)
		if err == nil && info.Mode()&os.ModeSocket != 0 && info.Mode().Perm() == 0o600 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v (%v), want a socket of mode 0600", path, info.Mode(), err)
		}
		<-time.After(5 * time.Millisecond)
	}
}

// TestProfiles: the runtime's profiles answer on the debug socket; a heap
// profile after a GC is a gzipped protobuf.
func TestProfiles(t *testing.T) {
	socket, _ := serve(t, filled())
	status, _, body := get(t, socket, "/debug/pprof/heap?gc=1")
	if status != http.StatusOK || !strings.HasPrefix(body, "\x1f\x8b") {
		t.Fatalf("heap profile: status %d, %d bytes, not gzip", status, len(body))
	}
	status, _, body = get(t, socket, "/debug/pprof/")
	if status != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Fatalf("profile index: status %d: %.200s", status, body)
	}
}
