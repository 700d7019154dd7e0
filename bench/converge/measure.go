package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// measure starts the operator, polls /readyz every 20 ms, samples the peak
// RSS (VmHWM), stops it with SIGTERM and counts helm upgrades in its log.
func measure(bin, work string, c *cluster.Cluster, env ...string) (result, error) {
	port, err := freePort()
	if err != nil {
		return result{}, err
	}
	var logs bytes.Buffer
	globalHooks := filepath.Join(work, "global-hooks") // none, but the dir must be readable
	if err := os.MkdirAll(globalHooks, 0o755); err != nil {
		return result{}, err
	}
	cmd := exec.Command(bin, "start")
	cmd.Env = append(os.Environ(), "MODULES_DIR="+filepath.Join(work, "modules"), "GLOBAL_HOOKS_DIR="+globalHooks,
		"ADDON_OPERATOR_NAMESPACE=bench", "KUBE_CONFIG="+c.Kubeconfig, "LOG_TYPE=json",
		"ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.1", "ADDON_OPERATOR_LISTEN_PORT="+strconv.Itoa(port),
		"ADDON_OPERATOR_TMP_DIR="+filepath.Join(work, "tmp"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = &logs
	before, err := apiRequests(context.Background(), c.Kubeconfig)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	exited := make(chan struct{}) // closed when the process has ended
	go func() { _ = cmd.Wait(); close(exited) }()
	samples := startSampler(cmd.Process.Pid, clusterPIDs(c.Dir), 20*time.Millisecond)
	ready, err := waitReady(port, exited, 5*time.Minute)
	u, uerr := samples.finish()
	after, rerr := apiRequests(context.Background(), c.Kubeconfig)
	r := result{ready: ready, peakRSS: u.peakRSS, usage: u, requests: after.since(before)}
	if err == nil {
		err = errors.Join(uerr, rerr)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	<-exited
	if err != nil {
		return r, fmt.Errorf("%w (after %s)\n%s", err, time.Since(start), tail(logs.String(), 30))
	}
	r.upgrades = countUpgrades(logs.Bytes())
	r.phases = phases(logs.Bytes(), start)
	r.log = logs.Bytes()
	return r, nil
}

// clusterPIDs are the kube-apiserver and etcd of the cluster in dir, from
// their pid files; one that cannot be read is left out.
func clusterPIDs(dir string) []int {
	var pids []int
	for _, name := range []string{"kube-apiserver.pid", "etcd.pid"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// phases reads from the log when start-up (config read, hooks configured)
// ended and when the first converge did, relative to the process start.
func phases(logs []byte, start time.Time) string {
	// Messages are matched by prefix: builds word the start-up line differently.
	marks := map[string]string{"start-up: running global onStartup hooks": "start-up done",
		"modules discovered": "discovered", "first converge done; ready": "converged"}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(logs))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		for prefix, mark := range marks {
			if strings.HasPrefix(rec.Msg, prefix) {
				out = append(out, fmt.Sprintf("%s %.2fs", mark, rec.Time.Sub(start).Seconds()))
			}
		}
	}
	return strings.Join(out, ", ")
}

func waitReady(port int, exited <-chan struct{}, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	url := fmt.Sprintf("http://127.0.0.1:%d/readyz", port)
	client := &http.Client{Timeout: time.Second}
	for time.Since(start) < limit {
		if resp, err := client.Get(url); err == nil {
			// Read to the end: the connection is then reused, and the
			// operator's CPU is not spent accepting a connection per poll.
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(start), nil
			}
		}
		select {
		case <-exited:
			return 0, fmt.Errorf("operator exited before it was ready")
		default:
		}
		time.Sleep(20 * time.Millisecond) // a measurement poll, not synchronisation in a test; each poll costs the operator ~0.1 ms of CPU
	}
	return 0, fmt.Errorf("not ready within %s", limit)
}

func countUpgrades(logs []byte) int {
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(logs))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec["msg"] == "helm" && rec["upgraded"] == true {
			n++
		}
	}
	return n
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
