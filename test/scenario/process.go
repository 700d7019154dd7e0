package scenario

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// Process is one operator run by a bench program: its stderr is kept and
// its HTTP server polled.
type Process struct {
	cmd    *exec.Cmd
	port   int
	logs   lockedBuffer
	exited chan struct{} // closed when the process has ended
	client *http.Client
}

// StartProcess runs `bin start` as l says, on a free port when l has none,
// with env added.
func StartProcess(bin string, l Launch, env ...string) (*Process, error) {
	if l.Port == 0 {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		l.Port = port
	}
	base, err := l.Env()
	if err != nil {
		return nil, err
	}
	p := &Process{port: l.Port, exited: make(chan struct{}), client: &http.Client{Timeout: 5 * time.Second}}
	p.cmd = exec.Command(bin, "start")
	p.cmd.Env = append(base, env...)
	p.cmd.Stderr = &p.logs
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	return p, nil
}

// Pid is the process's id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Logs is what the process wrote to stderr so far.
func (p *Process) Logs() string { return p.logs.String() }

// Get fetches path from the operator's HTTP server: status and body, read
// to the end (the connection is then reused, and the operator's CPU is not
// spent accepting a connection per poll).
func (p *Process) Get(path string) (int, []byte, error) {
	resp, err := p.client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", p.port, path))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// Poll calls done every interval until it says true, the process exits or
// limit passes; an error names what and ends with the log's tail.
func (p *Process) Poll(what string, interval, limit time.Duration, done func() bool) error {
	deadline := time.Now().Add(limit)
	for !done() {
		select {
		case <-p.exited:
			return fmt.Errorf("operator exited while waiting for %s\n%s", what, cluster.Tail(p.Logs(), 30))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no %s within %s\n%s", what, limit, cluster.Tail(p.Logs(), 30))
		}
		time.Sleep(interval) // a measurement poll, not synchronisation in a test; each costs the operator ~0.1 ms of CPU
	}
	return nil
}

// WaitReady polls /readyz every 20 ms until 200 and returns how long that
// took.
func (p *Process) WaitReady() (time.Duration, error) {
	start := time.Now()
	err := p.Poll("/readyz 200", 20*time.Millisecond, 5*time.Minute, func() bool {
		status, _, err := p.Get("/readyz")
		return err == nil && status == http.StatusOK
	})
	return time.Since(start), err
}

// Stop ends the operator with SIGTERM and waits for it; after 30 s it is
// killed.
func (p *Process) Stop() {
	Terminate(p.cmd.Process, p.exited, 30*time.Second)
}

// Terminate sends p SIGTERM and waits until exited is closed; after grace
// it kills p, waits, and says false.
func Terminate(p *os.Process, exited <-chan struct{}, grace time.Duration) bool {
	_ = p.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		return true
	case <-time.After(grace):
		_ = p.Kill()
		<-exited
		return false
	}
}

// lockedBuffer is the operator's stderr, read while it is written.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
