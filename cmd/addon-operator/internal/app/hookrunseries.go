package app

import (
	"sort"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// The buckets of the hook run histograms: durations and CPU from 1 ms,
// context files from 1 KiB.
var (
	runBuckets     = prometheus.ExponentialBuckets(0.001, 2, 16)
	contextBuckets = prometheus.ExponentialBuckets(1024, 4, 12)
)

// runSeries are one scope's hook run figures (duration, CPU, memory,
// context size, outcomes), one compact record per label set, exposed as
// const metrics when scraped. A prometheus vec keeps a histogram of two
// halves with label pairs per metric (~10 KB for the eight metrics of a
// hook's binding); a record here is ~0.7 KB, and /metrics shows the same
// text.
type runSeries struct {
	seconds, userCPU, sysCPU, maxRSS, contextBytes, errors, allowedErrors, success *prometheus.Desc

	mu     sync.Mutex
	byKey  map[string]*runRecord
	sorted []*runRecord // in the order they came: Gather sorts
}

// runRecord is one label set's figures; its label values live in pairs
// only (the caller's slice is not kept).
type runRecord struct {
	pairs                          []*dto.LabelPair // sorted by name, made once
	seconds, userCPU, sysCPU       histogram[[16]uint64]
	contextBytes                   histogram[[12]uint64]
	maxRSS                         float64
	errors, allowedErrors, success float64
}

// histogram is a non-cumulative count per bucket (B's length is the
// bucket count), the +Inf count and the sum.
type histogram[B [16]uint64 | [12]uint64] struct {
	counts B
	count  uint64
	sum    float64
}

func (h *histogram[B]) observe(bounds []float64, v float64) {
	if i := sort.SearchFloat64s(bounds, v); i < len(bounds) {
		h.counts[i]++
	}
	h.count++
	h.sum += v
}

// metric is h as a histogram of desc with the label pairs given.
func (h *histogram[B]) metric(desc *prometheus.Desc, bounds []float64, labels []*dto.LabelPair) prometheus.Metric {
	buckets := make([]*dto.Bucket, len(bounds))
	cells := make([]dto.Bucket, len(bounds)) // one allocation for all
	var acc uint64
	for i, le := range bounds {
		acc += h.counts[i]
		cells[i].CumulativeCount, cells[i].UpperBound = proto.Uint64(acc), proto.Float64(le)
		buckets[i] = &cells[i]
	}
	return recordMetric{desc: desc, labels: labels, hist: &dto.Histogram{SampleCount: proto.Uint64(h.count),
		SampleSum: proto.Float64(h.sum), Bucket: buckets}}
}

// recordMetric is one metric of a record as /metrics writes it: no map
// of buckets and no label validation per scrape, as a const metric's.
type recordMetric struct {
	desc    *prometheus.Desc
	labels  []*dto.LabelPair
	hist    *dto.Histogram
	counter *dto.Counter
	gauge   *dto.Gauge
}

func (m recordMetric) Desc() *prometheus.Desc { return m.desc }

func (m recordMetric) Write(out *dto.Metric) error {
	out.Label, out.Histogram, out.Counter, out.Gauge = m.labels, m.hist, m.counter, m.gauge
	return nil
}

func newRunSeries(prefix string, labels []string) *runSeries {
	desc := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(prefix+name, help, labels, nil) }
	return &runSeries{
		seconds:       desc("run_seconds", "Duration of hook runs."),
		userCPU:       desc("run_user_cpu_seconds", "User CPU time of hook runs."),
		sysCPU:        desc("run_sys_cpu_seconds", "System CPU time of hook runs."),
		maxRSS:        desc("run_max_rss_bytes", "Peak resident memory of the last run of the hook."),
		contextBytes:  desc("binding_context_bytes", "Size of the binding context file of hook runs."),
		errors:        desc("errors_total", "Failed hook runs that will be retried."),
		allowedErrors: desc("allowed_errors_total", "Failed hook runs of bindings with allowFailure (dropped)."),
		success:       desc("success_total", "Hook runs that succeeded."),
		byKey:         map[string]*runRecord{},
	}
}

// runFigures are one run's figures.
type runFigures struct {
	seconds, userCPU, sysCPU, maxRSS, contextBytes float64
	failed, allowed, succeeded                     bool
}

// observe adds a run's figures to the record of labels.
func (s *runSeries) observe(labels []string, f runFigures) {
	key := strings.Join(labels, "\xff")
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.byKey[key]
	if r == nil {
		r = &runRecord{pairs: prometheus.MakeLabelPairs(s.seconds, labels)}
		s.byKey[key] = r
		s.sorted = append(s.sorted, r)
	}
	r.seconds.observe(runBuckets, f.seconds)
	r.userCPU.observe(runBuckets, f.userCPU)
	r.sysCPU.observe(runBuckets, f.sysCPU)
	r.contextBytes.observe(contextBuckets, f.contextBytes)
	r.maxRSS = f.maxRSS
	r.errors += one(f.failed)
	r.allowedErrors += one(f.allowed)
	r.success += one(f.succeeded)
}

// Describe implements prometheus.Collector.
func (s *runSeries) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range append(s.histograms(), s.maxRSS, s.errors, s.allowedErrors, s.success) {
		ch <- d
	}
}

// histograms are the descriptions of the histograms among the metrics.
func (s *runSeries) histograms() []*prometheus.Desc {
	return []*prometheus.Desc{s.seconds, s.userCPU, s.sysCPU, s.contextBytes}
}

// Collect implements prometheus.Collector.
func (s *runSeries) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.sorted {
		ch <- r.seconds.metric(s.seconds, runBuckets, r.pairs)
		ch <- r.userCPU.metric(s.userCPU, runBuckets, r.pairs)
		ch <- r.sysCPU.metric(s.sysCPU, runBuckets, r.pairs)
		ch <- recordMetric{desc: s.maxRSS, labels: r.pairs, gauge: &dto.Gauge{Value: proto.Float64(r.maxRSS)}}
		ch <- r.contextBytes.metric(s.contextBytes, contextBuckets, r.pairs)
		ch <- recordMetric{desc: s.errors, labels: r.pairs, counter: &dto.Counter{Value: proto.Float64(r.errors)}}
		ch <- recordMetric{desc: s.allowedErrors, labels: r.pairs, counter: &dto.Counter{Value: proto.Float64(r.allowedErrors)}}
		ch <- recordMetric{desc: s.success, labels: r.pairs, counter: &dto.Counter{Value: proto.Float64(r.success)}}
	}
}
