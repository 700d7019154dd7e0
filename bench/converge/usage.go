package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTick is the kernel's USER_HZ: /proc/PID/stat counts CPU time in
// ticks of 1/100 s on every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// usage is what one operator process cost up to /readyz 200: its own CPU
// time, its hooks' (children it waited for), the cluster's (kube-apiserver
// and etcd) over the same span, and the peak of its resident set.
type usage struct {
	cpu     time.Duration // user+sys of the operator process itself
	hooks   time.Duration // cutime+cstime: the hook processes it waited for
	cluster time.Duration // user+sys of kube-apiserver and etcd during the run
	peakRSS int64         // VmHWM: the kernel's high-water mark
	anonRSS int64         // the highest RssAnon sampled while it ran
}

// sampler watches a process's /proc status every interval until stopped,
// keeping the highest RssAnon seen (the kernel keeps no high-water mark for
// the anonymous part, only for the whole).
type sampler struct {
	pid int
	// cluster are the kube-apiserver and etcd pids and their CPU at the start.
	cluster      []int
	clusterStart time.Duration
	stop         chan struct{}
	done         sync.WaitGroup
	max          int64
}

func startSampler(pid int, cluster []int, interval time.Duration) *sampler {
	s := &sampler{pid: pid, cluster: cluster, clusterStart: pidsCPU(cluster), stop: make(chan struct{})}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) sample() {
	if v := statusKB(s.pid, "RssAnon:"); v > s.max {
		s.max = v
	}
}

// finish samples once more, stops the sampler and reads the process's
// CPU time and VmHWM; call it while the process is still alive.
func (s *sampler) finish() (usage, error) {
	close(s.stop)
	s.done.Wait()
	s.sample()
	t, err := processTimes(s.pid)
	if err != nil {
		return usage{}, err
	}
	return usage{cpu: t.self, hooks: t.children, cluster: pidsCPU(s.cluster) - s.clusterStart,
		peakRSS: statusKB(s.pid, "VmHWM:"), anonRSS: s.max}, nil
}

// pidsCPU is the summed own CPU time of pids; a process that cannot be read
// counts 0 (the figure then says less, never more).
func pidsCPU(pids []int) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		if t, err := processTimes(pid); err == nil {
			sum += t.self
		}
	}
	return sum
}

// cpuTimes are a process's own CPU time and that of its waited-for children.
type cpuTimes struct{ self, children time.Duration }

// processTimes reads utime+stime and cutime+cstime of pid from /proc/PID/stat.
func processTimes(pid int) (cpuTimes, error) {
	path := fmt.Sprintf("/proc/%d/stat", pid)
	data, err := os.ReadFile(path)
	if err != nil {
		return cpuTimes{}, fmt.Errorf("read %s: %w", path, err)
	}
	// The command name (field 2) may hold spaces; fields after its ')' are fixed.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return cpuTimes{}, fmt.Errorf("%s: no ')' after the command name", path)
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14-17.
	if len(f) < 15 {
		return cpuTimes{}, fmt.Errorf("%s: %d fields after the command name, want at least 15", path, len(f))
	}
	var ticks [4]int64
	for i := range ticks {
		if ticks[i], err = strconv.ParseInt(f[11+i], 10, 64); err != nil {
			return cpuTimes{}, fmt.Errorf("%s: field %d %q is not a number", path, 14+i, f[11+i])
		}
	}
	return cpuTimes{self: time.Duration(ticks[0]+ticks[1]) * clockTick,
		children: time.Duration(ticks[2]+ticks[3]) * clockTick}, nil
}

// statusKB reads one "Key: N kB" line of /proc/PID/status, in bytes; 0 when
// the process is gone or has no such line.
func statusKB(pid int, key string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// usageLine is the part of a run's printed line that usage.go owns.
func (u usage) line(modules int) string {
	per := time.Duration(0)
	if modules > 0 {
		per = u.cpu / time.Duration(modules)
	}
	return fmt.Sprintf("CPU %6.2fs (%5.1f ms/module)  peak RSS %4d MB (anon %4d MB)",
		u.cpu.Seconds(), float64(per.Microseconds())/1000, u.peakRSS>>20, u.anonRSS>>20)
}

// boundLine says where the CPU of a run went and the wall time that CPU
// alone takes on this machine's cores: a converge cannot be faster than
// (operator + hooks + apiserver and etcd) / cores.
func (u usage) boundLine() string {
	all := u.cpu + u.hooks + u.cluster
	return fmt.Sprintf("CPU operator %.2fs + hooks %.2fs + apiserver/etcd %.2fs = %.2fs: %.2fs of wall on %d cores",
		u.cpu.Seconds(), u.hooks.Seconds(), u.cluster.Seconds(), all.Seconds(),
		(all / time.Duration(runtime.NumCPU())).Seconds(), runtime.NumCPU())
}

// usageSummary prints medians of a series of runs' usage, for the restarts.
func usageSummary(name string, us []usage, modules int) {
	if len(us) < 2 {
		return
	}
	cpus := make([]time.Duration, len(us))
	for i, u := range us {
		cpus[i] = u.cpu
	}
	med := median(cpus)
	fmt.Printf("%s CPU median of %d: %.2fs (%.1f ms/module)\n", name, len(us), med.Seconds(),
		float64((med/time.Duration(max(modules, 1))).Microseconds())/1000)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// binary is the operator to measure: -bin, or ./cmd/addon-operator built into work.
func (o options) binary(work string) (string, error) {
	if o.bin != "" {
		return o.bin, nil
	}
	bin := filepath.Join(work, "addon-operator")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/addon-operator").CombinedOutput(); err != nil {
		return "", fmt.Errorf("build ./cmd/addon-operator: %v\n%s", err, out)
	}
	return bin, nil
}
