package main

import (
	"bytes"
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
	"syscall"
	"time"
)

// operator is one running operator process.
type operator struct {
	cmd    *exec.Cmd
	port   int
	socket string // the debug socket
	logs   lockedBuffer
	exited chan struct{} // closed when the process has ended
	client *http.Client
}

// startOperator runs bin with the bench's environment: an empty modules
// dir, the global hook's dir, a free port, JSON logs.
func startOperator(bin, work, kubeconfig, ns string) (*operator, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	modules := filepath.Join(work, "modules") // empty, but it must be readable
	if err := os.MkdirAll(modules, 0o755); err != nil {
		return nil, err
	}
	o := &operator{port: port, socket: filepath.Join(work, "debug.socket"), exited: make(chan struct{}), client: &http.Client{Timeout: 5 * time.Second}}
	o.cmd = exec.Command(bin, "start")
	o.cmd.Env = append(os.Environ(), "MODULES_DIR="+modules, "GLOBAL_HOOKS_DIR="+filepath.Join(work, "global-hooks"),
		"ADDON_OPERATOR_NAMESPACE="+ns, "KUBE_CONFIG="+kubeconfig, "LOG_TYPE=json",
		"ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.1", "ADDON_OPERATOR_LISTEN_PORT="+strconv.Itoa(port),
		"ADDON_OPERATOR_TMP_DIR="+filepath.Join(work, "tmp"), "DEBUG_UNIX_SOCKET="+filepath.Join(work, "debug.socket"))
	o.cmd.Stderr = &o.logs
	if err := o.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = o.cmd.Wait(); close(o.exited) }()
	return o, nil
}

func (o *operator) pid() int { return o.cmd.Process.Pid }

// get fetches path from the operator's HTTP server: status and body.
func (o *operator) get(path string) (int, []byte, error) {
	resp, err := o.client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", o.port, path))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// saveHeap writes the operator's heap profile (after a GC) to path, from
// the debug socket's /debug/pprof/heap.
func (o *operator) saveHeap(path string) error {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", o.socket)
		}}}
	resp, err := client.Get("http://debug/debug/pprof/heap?gc=1")
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("heap profile: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

// poll calls done every interval until it says true, the process exits or
// limit passes.
func (o *operator) poll(what string, interval, limit time.Duration, done func() bool) error {
	deadline := time.Now().Add(limit)
	for !done() {
		select {
		case <-o.exited:
			return fmt.Errorf("operator exited while waiting for %s\n%s", what, tail(o.logs.String(), 30))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no %s within %s\n%s", what, limit, tail(o.logs.String(), 30))
		}
		time.Sleep(interval) // a measurement poll, not synchronisation in a test
	}
	return nil
}

// waitReady polls /readyz every 20 ms until 200.
func (o *operator) waitReady() error {
	return o.poll("/readyz 200", 20*time.Millisecond, 5*time.Minute, func() bool {
		status, _, err := o.get("/readyz")
		return err == nil && status == http.StatusOK
	})
}

// waitIdle polls /queue?format=json every 100 ms until it shows no task
// twice in a row.
func (o *operator) waitIdle() error {
	empty := 0
	return o.poll("idle queues", 100*time.Millisecond, 5*time.Minute, func() bool {
		if queuedTasks(o.get("/queue?format=json")) == 0 {
			empty++
		} else {
			empty = 0
		}
		return empty >= 2
	})
}

// queuedTasks counts the tasks of a /queue?format=json answer; -1 when it
// is not one.
func queuedTasks(status int, body []byte, err error) int {
	var snap struct {
		Queues []struct {
			Tasks []json.RawMessage `json:"tasks"`
		} `json:"queues"`
	}
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &snap) != nil {
		return -1
	}
	n := 0
	for _, q := range snap.Queues {
		n += len(q.Tasks)
	}
	return n
}

// stop ends the operator with SIGTERM and waits for it.
func (o *operator) stop() {
	_ = o.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-o.exited:
	case <-time.After(30 * time.Second):
		_ = o.cmd.Process.Kill()
		<-o.exited
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

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
