package main

import (
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

// cpuPoint is what a run had spent some time after its start: the
// operator's CPU, its hooks' (children it waited for) and the cluster's.
type cpuPoint struct {
	at                   time.Duration
	self, hooks, cluster time.Duration
}

// floor is the wall time the point's CPU takes on cores.
func (p cpuPoint) floor(cores int) time.Duration {
	return (p.self + p.hooks + p.cluster) / time.Duration(max(cores, 1))
}

// cpuTrail samples the CPU of a run every interval until stopped, so
// that what was spent up to a moment read later from the log (discovery's
// end) is known.
type cpuTrail struct {
	quit   chan struct{}
	done   chan []cpuPoint
	points []cpuPoint
}

func startTrail(pid int, cluster []int, start time.Time, interval time.Duration) *cpuTrail {
	t := &cpuTrail{quit: make(chan struct{}), done: make(chan []cpuPoint)}
	base := pidsCPU(cluster)
	go func() {
		var points []cpuPoint
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			if c, err := proc.CPU(pid); err == nil {
				points = append(points, cpuPoint{at: time.Since(start), self: c.Self, hooks: c.Children, cluster: pidsCPU(cluster) - base})
			}
			select {
			case <-t.quit:
				t.done <- points
				return
			case <-tick.C:
			}
		}
	}()
	return t
}

// stop ends the sampling; call it while the process is alive.
func (t *cpuTrail) stop() {
	close(t.quit)
	t.points = <-t.done
}

// at is the first point sampled at d or later (the last one when none is).
func (t *cpuTrail) at(d time.Duration) cpuPoint {
	for _, p := range t.points {
		if p.at >= d {
			return p
		}
	}
	if len(t.points) == 0 {
		return cpuPoint{}
	}
	return t.points[len(t.points)-1]
}
