package main

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

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

// sampler watches a process's RssAnon every interval until finished (the
// kernel keeps no high-water mark for the anonymous part, only for the
// whole), and the cluster's CPU from its start.
type sampler struct {
	pid  int
	anon *proc.PeakSampler
	// cluster are the kube-apiserver and etcd pids and their CPU at the start.
	cluster      []int
	clusterStart time.Duration
}

func startSampler(pid int, cluster []int, interval time.Duration) *sampler {
	return &sampler{pid: pid, anon: proc.SamplePeak(pid, "RssAnon:", interval),
		cluster: cluster, clusterStart: pidsCPU(cluster)}
}

// finish stops the sampler and reads the process's CPU time and VmHWM;
// call it while the process is still alive.
func (s *sampler) finish() (usage, error) {
	anon := s.anon.Stop()
	t, err := proc.CPU(s.pid)
	if err != nil {
		return usage{}, err
	}
	return usage{cpu: t.Self, hooks: t.Children, cluster: pidsCPU(s.cluster) - s.clusterStart,
		peakRSS: proc.StatusBytes(s.pid, "VmHWM:"), anonRSS: anon}, nil
}

// pidsCPU is the summed own CPU time of pids; a process that cannot be read
// counts 0 (the figure then says less, never more).
func pidsCPU(pids []int) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		if t, err := proc.CPU(pid); err == nil {
			sum += t.Self
		}
	}
	return sum
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
