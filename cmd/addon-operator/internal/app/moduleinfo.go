package app

import (
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// moduleCritical is mm_module_info's critical label. The original's stock
// loader makes every module critical (UPSTREAM §5); module.yaml's
// critical changes nothing here yet.
const moduleCritical = "true"

const moduleInfoHelp = "1 for every module, with whether it is enabled and critical (true/false)."

// moduleInfo is mm_module_info{module,enabled,critical}: 1 for every
// module, rebuilt after each discovery.
type moduleInfo struct {
	vec    *prometheus.GaugeVec
	mu     sync.Mutex
	series map[string]bool // module -> enabled, as published
}

func newModuleInfo(prefix string) *moduleInfo {
	return &moduleInfo{series: map[string]bool{},
		vec: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "mm_module_info",
			Help: moduleInfoHelp},
			[]string{"module", "enabled", "critical"})}
}

// set publishes every module in all, enabled when it is in enabled; the
// series of modules no longer in all, or whose state changed, go away.
func (mi *moduleInfo) set(all, enabled []string) {
	on := make(map[string]bool, len(enabled))
	for _, name := range enabled {
		on[name] = true
	}
	mi.mu.Lock()
	defer mi.mu.Unlock()
	next := make(map[string]bool, len(all))
	for _, name := range all {
		next[name] = on[name]
	}
	for name, was := range mi.series {
		if now, ok := next[name]; !ok || now != was {
			mi.vec.DeleteLabelValues(name, strconv.FormatBool(was), moduleCritical)
		}
	}
	for name, now := range next {
		mi.vec.WithLabelValues(name, strconv.FormatBool(now), moduleCritical).Set(1)
	}
	mi.series = next
}

// moduleSet is a gauge of one series per module in a set, value 1,
// rebuilt whole each time the set is told: module_requirements_unmet (the
// modules unmet requirements disabled at the last discovery) and
// module_dir_unseen (the modules whose dir cannot be seen).
type moduleSet struct {
	vec *prometheus.GaugeVec
}

func newModuleSet(name, help string) *moduleSet {
	return &moduleSet{vec: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{"module"})}
}

// setKeys makes the series those of the map's modules.
func setKeys[V any](s *moduleSet, byModule map[string]V) {
	s.vec.Reset()
	for name := range byModule {
		s.vec.WithLabelValues(name).Set(1)
	}
}
