package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/proc"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// restPause is how long after /readyz 200 the anonymous memory at rest is
// read (and the heap profile taken).
const restPause = 3 * time.Second

// measure starts the operator, polls /readyz every 20 ms, samples the peak
// RSS (VmHWM), lets it run settle more, counts the apiserver's requests,
// stops it with SIGTERM and counts helm upgrades in its log. With heap set
// the operator's heap profile is written there once it has settled.
func measure(bin string, setup *scenario.Bench, settle time.Duration, heap string, env ...string) (result, error) {
	c := setup.Cluster
	before, err := apiRequests(context.Background(), c.Kubeconfig)
	if err != nil {
		return result{}, err
	}
	socket := filepath.Join(setup.Work, "debug.socket")
	env = append(env, "DEBUG_UNIX_SOCKET="+socket)
	start := time.Now()
	op, err := scenario.StartProcess(bin, setup.Launch("bench"), env...)
	if err != nil {
		return result{}, err
	}
	samples := startSampler(op.Pid(), clusterPIDs(c.Dir), 20*time.Millisecond)
	trail := startTrail(op.Pid(), clusterPIDs(c.Dir), start, 20*time.Millisecond)
	ready, err := op.WaitReady()
	trail.stop()
	u, uerr := samples.finish()
	readyAt := time.Now()
	time.Sleep(settle) // a bench, not a test: the writes after readiness are counted too
	after, rerr := apiRequests(context.Background(), c.Kubeconfig)
	// The operator returns the start's garbage to the system once ready
	// (debug.FreeOSMemory, a GC): at rest is read after that.
	time.Sleep(time.Until(readyAt.Add(restPause)))
	u.restAnon = proc.StatusBytes(op.Pid(), "RssAnon:")
	var herr error
	if heap != "" && err == nil {
		herr = heapProfile(socket, heap)
	}
	// Last: rendering /metrics at 1,000 modules allocates megabytes. The
	// runs up to ready are all there (a restart's converge is done then).
	runs, mem, merr := operatorMetrics(op)
	r := result{ready: ready, peakRSS: u.peakRSS, usage: u, requests: after.since(before), hookRuns: runs, goMemory: mem}
	if err == nil {
		err = errors.Join(uerr, merr, herr, rerr)
	}
	op.Stop()
	if err != nil {
		return r, fmt.Errorf("%w (after %s)\n%s", err, time.Since(start), cluster.Tail(op.Logs(), 30))
	}
	logs := []byte(op.Logs())
	r.upgrades = countUpgrades(logs)
	r.phases, r.discovered = phases(logs, start)
	r.atDiscovered = trail.at(r.discovered)
	r.log = logs
	return r, nil
}

// operatorMetrics reads the hook runs (bindings' runs, not --config) and
// the Go runtime's memory from the operator's /metrics.
// A read past the client's 5 s (a loaded machine, 1,000 modules) is tried
// again, twice.
func operatorMetrics(op *scenario.Process) (int, goMemory, error) {
	status, body, err := op.Get("/metrics")
	for try := 0; err != nil && try < 2; try++ {
		status, body, err = op.Get("/metrics")
	}
	if err != nil {
		return 0, goMemory{}, fmt.Errorf("operator /metrics: %w", err)
	}
	if status != 200 {
		return 0, goMemory{}, fmt.Errorf("operator /metrics: status %d", status)
	}
	return hookRuns(string(body)), goMemoryOf(string(body)), nil
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
// ended and when the first converge did, relative to the process start;
// discovered is when the first discovery ended.
func phases(logs []byte, start time.Time) (text string, discovered time.Duration) {
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
				if mark == "discovered" && discovered == 0 {
					discovered = rec.Time.Sub(start)
				}
				out = append(out, fmt.Sprintf("%s %.2fs", mark, rec.Time.Sub(start).Seconds()))
			}
		}
	}
	return strings.Join(out, ", "), discovered
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
