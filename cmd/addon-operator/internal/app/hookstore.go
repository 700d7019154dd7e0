package app

import (
	"sort"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/hookexec"
)

// hookStore keeps the metrics hooks write to $METRICS_PATH (set, add,
// observe, expire of a group) and exposes them as a collector for
// /metrics/hooks. Every series gets the hook's name (and module) as labels.
// As in shell-operator, a metric name is used as-is (its "{PREFIX}", if any,
// becomes the metrics prefix), and the operations of one run that name a
// group replace every series that group had.
type hookStore struct {
	prefix string
	mu     sync.Mutex
	series map[string]*hookSeries
}

type hookSeries struct {
	name, kind, group string
	labels            map[string]string
	value             float64 // gauge or counter
	buckets           []float64
	counts            []uint64 // histogram: per bucket
	count             uint64
	sum               float64
}

// prefixPlaceholder in a hook's metric name stands for the metrics prefix.
const prefixPlaceholder = "{PREFIX}"

func newHookStore(prefix string) *hookStore {
	return &hookStore{prefix: prefix, series: map[string]*hookSeries{}}
}

// apply records one run's operations.
func (h *hookStore) apply(module, hook string, ops []hookexec.MetricOp) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expire(groupsOf(ops))
	for _, op := range ops {
		if op.Action == hookexec.MetricExpire {
			continue
		}
		labels := map[string]string{"hook": hook}
		if module != "" {
			labels["module"] = module
		}
		for k, v := range op.Labels {
			labels[k] = v
		}
		h.record(op, labels)
	}
}

// groupsOf are the groups a run's operations name, each once.
func groupsOf(ops []hookexec.MetricOp) map[string]bool {
	groups := map[string]bool{}
	for _, op := range ops {
		if op.Group != "" {
			groups[op.Group] = true
		}
	}
	return groups
}

// expire removes the series of groups, in one pass over the series.
func (h *hookStore) expire(groups map[string]bool) {
	if len(groups) == 0 {
		return
	}
	for k, s := range h.series {
		if groups[s.group] {
			delete(h.series, k)
		}
	}
}

func (h *hookStore) record(op hookexec.MetricOp, labels map[string]string) {
	key := op.Name + "{" + labelKey(labels) + "}"
	s, ok := h.series[key]
	if !ok {
		s = &hookSeries{name: op.Name, kind: kindOf(op.Action), labels: labels, buckets: op.Buckets}
		if s.kind == "histogram" {
			if len(s.buckets) == 0 {
				s.buckets = prometheus.DefBuckets
			}
			s.counts = make([]uint64, len(s.buckets))
		}
		h.series[key] = s
	}
	s.group = op.Group
	switch op.Action {
	case hookexec.MetricSet:
		s.value = op.Value
	case hookexec.MetricAdd:
		s.value += op.Value
	case hookexec.MetricObserve:
		s.observe(op.Value)
	}
}

func (s *hookSeries) observe(v float64) {
	for i, b := range s.buckets {
		if v <= b {
			s.counts[i]++
		}
	}
	s.count++
	s.sum += v
}

func kindOf(a hookexec.MetricAction) string {
	switch a {
	case hookexec.MetricAdd:
		return "counter"
	case hookexec.MetricObserve:
		return "histogram"
	}
	return "gauge"
}

func labelKey(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + labels[k] + ",")
	}
	return b.String()
}

// Describe implements prometheus.Collector (unchecked: hooks decide the
// metrics).
func (h *hookStore) Describe(chan<- *prometheus.Desc) {}

// Collect implements prometheus.Collector.
func (h *hookStore) Collect(ch chan<- prometheus.Metric) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.series {
		names, values := make([]string, 0, len(s.labels)), make([]string, 0, len(s.labels))
		for k, v := range s.labels {
			names, values = append(names, k), append(values, v)
		}
		// One help text per name: hooks that write the same metric (the
		// nested hooks of a batch executable do) make one family.
		desc := prometheus.NewDesc(strings.Replace(s.name, prefixPlaceholder, h.prefix, 1), "Written by a hook to $METRICS_PATH; the hook label names it.", names, nil)
		if m, err := s.metric(desc, values); err == nil {
			ch <- m
		}
	}
}

func (s *hookSeries) metric(desc *prometheus.Desc, values []string) (prometheus.Metric, error) {
	switch s.kind {
	case "counter":
		return prometheus.NewConstMetric(desc, prometheus.CounterValue, s.value, values...)
	case "histogram":
		buckets := map[float64]uint64{}
		for i, b := range s.buckets {
			buckets[b] = s.counts[i]
		}
		return prometheus.NewConstHistogram(desc, s.count, s.sum, buckets, values...)
	}
	return prometheus.NewConstMetric(desc, prometheus.GaugeValue, s.value, values...)
}
