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
	// restAnon is RssAnon once the run is ready (and has settled): what
	// the operator keeps, not its peak.
	restAnon int64
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

// floor is the wall time the run's CPU alone takes on this machine's
// cores: a converge cannot be faster than (operator + hooks + apiserver
// and etcd) / cores.
func (u usage) floor() time.Duration {
	return (u.cpu + u.hooks + u.cluster) / time.Duration(runtime.NumCPU())
}

// boundLine says where the CPU of a run went, the floor it makes, and how
// far the run's ready time is from it.
func (u usage) boundLine(ready time.Duration) string {
	all := u.cpu + u.hooks + u.cluster
	return fmt.Sprintf("CPU operator %.2fs + hooks %.2fs + apiserver/etcd %.2fs = %.2fs: a floor of %.2fs of wall on %d cores; ready %.2fs = %.2f× the floor",
		u.cpu.Seconds(), u.hooks.Seconds(), u.cluster.Seconds(), all.Seconds(),
		u.floor().Seconds(), runtime.NumCPU(), ready.Seconds(), ratio(ready, u.floor()))
}

// perLine is the operator's CPU per module and per hook run (configRuns
// --config runs, the fixture's hook files, and bindingRuns from the
// operator's metrics), and the anonymous memory it keeps per module.
func (u usage) perLine(modules, configRuns, bindingRuns int) string {
	runs := configRuns + bindingRuns
	return fmt.Sprintf("operator CPU %.2f ms/module, %.2f ms/hook run (%d hook runs: %d --config + %d bindings); anon at rest %d MB (%.1f KB/module)",
		ms(perCount(u.cpu, modules)), ms(perCount(u.cpu, runs)), runs, configRuns, bindingRuns,
		u.restAnon>>20, float64(u.restAnon)/1024/float64(max(modules, 1)))
}

// perCount is d / n, 0 when n is 0.
func perCount(d time.Duration, n int) time.Duration {
	if n <= 0 {
		return 0
	}
	return d / time.Duration(n)
}

// ratio is a / b, 0 when b is 0.
func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return a.Seconds() / b.Seconds()
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
