package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// operator is one run of the binary.
type operator struct {
	cmd *exec.Cmd
	// host and port are where its HTTP port listens: 127.0.0.1 and a free
	// port, unless the env given sets ADDON_OPERATOR_LISTEN_ADDRESS/_PORT.
	host   string
	port   int
	socket string
	// token, when set, is the bearer token get sends (the port's
	// ADDON_OPERATOR_HTTP_AUTH=kubernetes).
	token string
	mu    sync.Mutex
	logs  []map[string]any
	// grew is closed (and replaced) whenever a log record arrives.
	grew chan struct{}
	// lines gets every log line; ready is closed at "first converge done".
	ready     chan struct{}
	listening chan struct{}
	done      chan struct{}
	err       error
}

// startOperator runs the binary with the modules in root and extra env.
func startOperator(t *testing.T, root, ns string, env ...string) *operator {
	t.Helper()
	return launchOperator(t, nil, root, ns, env...)
}

// launchOperator runs the binary behind the command prefix (nil for none).
func launchOperator(t *testing.T, prefix []string, root, ns string, env ...string) *operator {
	t.Helper()
	return launchBinary(t, binary, prefix, root, ns, env...)
}

// launchBinary runs bin (the binary under test, or another build) behind
// the command prefix.
func launchBinary(t *testing.T, bin string, prefix []string, root, ns string, env ...string) *operator {
	t.Helper()
	op := &operator{port: scenario.Port(t), ready: make(chan struct{}), grew: make(chan struct{}), done: make(chan struct{}), listening: make(chan struct{}),
		socket: filepath.Join(t.TempDir(), "debug", "debug.socket")}
	base, err := scenario.Launch{Root: root, Namespace: ns, Kubeconfig: kube.Kubeconfig(), Port: op.port, TmpDir: t.TempDir()}.Env()
	if err != nil {
		t.Fatal(err)
	}
	op.host = "127.0.0.1"
	if h := envValue(env, "ADDON_OPERATOR_LISTEN_ADDRESS"); h != "" {
		op.host = h
	}
	if p := envValue(env, "ADDON_OPERATOR_LISTEN_PORT"); p != "" {
		if op.port, err = strconv.Atoi(p); err != nil {
			t.Fatal(err)
		}
	}
	argv := append(append(prefix[:len(prefix):len(prefix)], bin), "start")
	op.cmd = exec.Command(argv[0], argv[1:]...)
	op.cmd.Env = append(append(base, "RETRY_POLICY=fixed", "RETRY_INITIAL_DELAY=1s", "DEBUG_UNIX_SOCKET="+op.socket), env...)
	stderr, err := op.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := op.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go op.read(t, stderr)
	t.Cleanup(func() { op.stop(t) })
	return op
}

func (op *operator) read(t *testing.T, r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	readyOnce, listenOnce := sync.Once{}, sync.Once{}
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			rec = map[string]any{"msg": sc.Text()}
		}
		op.mu.Lock()
		op.logs = append(op.logs, rec)
		close(op.grew)
		op.grew = make(chan struct{})
		op.mu.Unlock()
		msg, _ := rec["msg"].(string)
		if strings.HasPrefix(msg, "first converge done") {
			readyOnce.Do(func() { close(op.ready) })
		}
		if msg == "HTTP server listening" {
			listenOnce.Do(func() { close(op.listening) })
		}
	}
	op.err = op.cmd.Wait()
	close(op.done)
}

// waitReady waits for the first converge, or fails with the operator's
// exit.
func (op *operator) waitReady(t *testing.T) {
	t.Helper()
	op.waitClosed(t, op.ready, "the first converge", 90*time.Second)
}

// waitClosed waits until mark is closed, failing with the log when the
// operator exits first or limit passes.
func (op *operator) waitClosed(t *testing.T, mark <-chan struct{}, what string, limit time.Duration) {
	t.Helper()
	select {
	case <-mark:
	case <-op.done:
		t.Fatalf("operator exited before %s: %v\n%s", what, op.err, op.logText())
	case <-time.After(limit):
		t.Fatalf("no %s after %s\n%s", what, limit, op.logText())
	}
}

// waitExit waits for the process to end and returns its exit code.
func (op *operator) waitExit(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-op.done:
	case <-time.After(within):
		t.Fatalf("operator did not exit within %s\n%s", within, op.logText())
	}
	return op.cmd.ProcessState.ExitCode()
}

func (op *operator) stop(t *testing.T) {
	select {
	case <-op.done:
		return
	default:
	}
	if !scenario.Terminate(op.cmd.Process, op.done, 30*time.Second) {
		t.Errorf("operator ignored SIGTERM for 30s")
	}
}

func (op *operator) logText() string {
	op.mu.Lock()
	defer op.mu.Unlock()
	var b strings.Builder
	for _, rec := range op.logs {
		line, _ := json.Marshal(rec)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// count counts log records whose msg is msg and whose fields match.
func (op *operator) count(msg string, fields map[string]any) int {
	op.mu.Lock()
	defer op.mu.Unlock()
	n := 0
	for _, rec := range op.logs {
		if matches(rec, msg, fields) {
			n++
		}
	}
	return n
}

func (op *operator) get(t *testing.T, path string) (int, string) {
	t.Helper()
	return op.getAs(t, path, op.token)
}

// getAs is get with token as the bearer token ("": none).
func (op *operator) getAs(t *testing.T, path, token string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(op.host, strconv.Itoa(op.port))+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// waitIdle waits until every queue is empty after the first converge:
// reactions (a module run after afterHelm changed values) may still be
// queued then. The queue actor logs "queues idle" each time the last task
// ends; at each such record /queue is asked whether it is still so.
func (op *operator) waitIdle(t *testing.T) {
	t.Helper()
	from := op.indexOf(t, "first converge done; ready")
	for {
		from = op.indexOf(t, "queues idle", from) + 1
		_, body := op.get(t, "/queue?format=json")
		var snap struct {
			Queues []struct{ Tasks []json.RawMessage }
		}
		if err := json.Unmarshal([]byte(body), &snap); err != nil {
			t.Fatalf("/queue: %v", err)
		}
		if emptyQueues(snap.Queues) {
			return
		}
	}
}

// indexOf waits for a record with message msg at an index of at least
// from (default 0) and returns its index.
func (op *operator) indexOf(t *testing.T, msg string, from ...int) int {
	t.Helper()
	at := -1
	op.waitLog(t, 60*time.Second, fmt.Sprintf("record %q", msg), func(recs []map[string]any) bool {
		start := 0
		if len(from) > 0 {
			start = from[0]
		}
		for i := start; i < len(recs); i++ {
			if recs[i]["msg"] == msg {
				at = i
				return true
			}
		}
		return false
	})
	return at
}

// waitLog waits until cond holds for the log records so far, checking at
// every new record; what names the wait in a failure.
func (op *operator) waitLog(t *testing.T, within time.Duration, what string, cond func([]map[string]any) bool) {
	t.Helper()
	deadline := time.After(within)
	for {
		op.mu.Lock()
		ok, grew := cond(op.logs), op.grew
		op.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-grew:
		case <-op.done:
			op.mu.Lock()
			ok = cond(op.logs)
			op.mu.Unlock()
			if !ok {
				t.Fatalf("operator exited while waiting for %s: %v\n%s", what, op.err, op.logText())
			}
			return
		case <-deadline:
			t.Fatalf("no %s within %s\n%s", what, within, op.logText())
		}
	}
}

// waitRecord waits for a record with message msg whose fields match.
func (op *operator) waitRecord(t *testing.T, msg string, fields map[string]any) map[string]any {
	t.Helper()
	var found map[string]any
	op.waitLog(t, 60*time.Second, fmt.Sprintf("record %q %v", msg, fields), func(recs []map[string]any) bool {
		for _, rec := range recs {
			if matches(rec, msg, fields) {
				found = rec
				return true
			}
		}
		return false
	})
	return found
}

func matches(rec map[string]any, msg string, fields map[string]any) bool {
	if msg != "" && rec["msg"] != msg {
		return false
	}
	for k, v := range fields {
		if rec[k] != v {
			return false
		}
	}
	return true
}

// cli runs a debug sub-command of the binary against the operator.
func (op *operator) cli(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runCLI(op.socket, args...)
	if err != nil {
		t.Fatalf("addon-operator %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// runCLI runs a debug sub-command of the binary with DEBUG_UNIX_SOCKET set
// to socket and returns its combined output.
func runCLI(socket string, args ...string) (string, error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "DEBUG_UNIX_SOCKET="+socket)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// waitListening waits until the HTTP port is open.
func (op *operator) waitListening(t *testing.T) {
	t.Helper()
	op.waitClosed(t, op.listening, "the HTTP port open", 30*time.Second)
}

// countWith counts log records whose field key has value.
func (op *operator) countWith(key string, value any) int {
	return op.count("", map[string]any{key: value})
}

func emptyQueues(qs []struct{ Tasks []json.RawMessage }) bool {
	for _, q := range qs {
		if len(q.Tasks) > 0 {
			return false
		}
	}
	return true
}

// recordTime is a log record's time.
func recordTime(t *testing.T, rec map[string]any) time.Time {
	t.Helper()
	s, _ := rec["time"].(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("record without a time: %v", rec)
	}
	return at
}

// lastRecordTime is the time of the newest JSON log record.
func (op *operator) lastRecordTime(t *testing.T) time.Time {
	t.Helper()
	op.mu.Lock()
	defer op.mu.Unlock()
	for i := len(op.logs) - 1; i >= 0; i-- {
		if _, ok := op.logs[i]["time"]; ok {
			return recordTime(t, op.logs[i])
		}
	}
	t.Fatal("no log record with a time")
	return time.Time{}
}
