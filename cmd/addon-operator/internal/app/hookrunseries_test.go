package app

import (
	"bytes"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// vecHookMetrics are the hook run metrics as client_golang's vecs keep
// them (what the operator exposed before runSeries): the reference that
// runSeries's text must equal.
type vecHookMetrics struct {
	seconds, userCPU, sysCPU, contextBytes *prometheus.HistogramVec
	maxRSS                                 *prometheus.GaugeVec
	errors, allowedErrors, success         *prometheus.CounterVec
}

func newVecHookMetrics(reg *prometheus.Registry, prefix string, labels []string) vecHookMetrics {
	h := func(name, help string, b []float64) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + name, Help: help, Buckets: b}, labels)
	}
	c := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + name, Help: help}, labels)
	}
	m := vecHookMetrics{
		seconds:       h("run_seconds", "Duration of hook runs.", runBuckets),
		userCPU:       h("run_user_cpu_seconds", "User CPU time of hook runs.", runBuckets),
		sysCPU:        h("run_sys_cpu_seconds", "System CPU time of hook runs.", runBuckets),
		contextBytes:  h("binding_context_bytes", "Size of the binding context file of hook runs.", contextBuckets),
		maxRSS:        prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "run_max_rss_bytes", Help: "Peak resident memory of the last run of the hook."}, labels),
		errors:        c("errors_total", "Failed hook runs that will be retried."),
		allowedErrors: c("allowed_errors_total", "Failed hook runs of bindings with allowFailure (dropped)."),
		success:       c("success_total", "Hook runs that succeeded."),
	}
	reg.MustRegister(m.seconds, m.userCPU, m.sysCPU, m.contextBytes, m.maxRSS, m.errors, m.allowedErrors, m.success)
	return m
}

func (m vecHookMetrics) observe(labels []string, f runFigures) {
	m.seconds.WithLabelValues(labels...).Observe(f.seconds)
	m.userCPU.WithLabelValues(labels...).Observe(f.userCPU)
	m.sysCPU.WithLabelValues(labels...).Observe(f.sysCPU)
	m.maxRSS.WithLabelValues(labels...).Set(f.maxRSS)
	m.contextBytes.WithLabelValues(labels...).Observe(f.contextBytes)
	m.errors.WithLabelValues(labels...).Add(one(f.failed))
	m.allowedErrors.WithLabelValues(labels...).Add(one(f.allowed))
	m.success.WithLabelValues(labels...).Add(one(f.succeeded))
}

func exposition(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range families {
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

// TestRunSeriesExposesWhatTheVecsDid: runs of two hooks' bindings, with
// values on bucket bounds, between them, past the last bound and zero,
// failed, allowed to fail and succeeded, give /metrics the same text as
// client_golang's vecs.
func TestRunSeriesExposesWhatTheVecsDid(t *testing.T) {
	labels := []string{"module", "hook", "binding", "queue", "activation"}
	vecReg, seriesReg := prometheus.NewRegistry(), prometheus.NewRegistry()
	vecs := newVecHookMetrics(vecReg, "addon_operator_module_hook_", labels)
	series := newRunSeries("addon_operator_module_hook_", labels)
	seriesReg.MustRegister(series)
	runs := []struct {
		labels []string
		f      runFigures
	}{
		{[]string{"m1", "h", "beforeHelm", "main", "OperatorStartup"}, runFigures{seconds: 0.004, userCPU: 0.002, sysCPU: 0.001, maxRSS: 4 << 20, contextBytes: 1024, succeeded: true}},
		{[]string{"m1", "h", "beforeHelm", "main", "OperatorStartup"}, runFigures{seconds: 0.0031, userCPU: 0, sysCPU: 0.0005, maxRSS: 5 << 20, contextBytes: 300, failed: true}},
		{[]string{"m0", "h", "kube", "main", ""}, runFigures{seconds: 100, userCPU: 40.5, sysCPU: 33, maxRSS: 1 << 30, contextBytes: 1 << 40, allowed: true}},
		{[]string{"m1", "h", "afterHelm", "main", "OperatorStartup"}, runFigures{seconds: 0.065536, userCPU: 0.001, sysCPU: 0.002, contextBytes: 4096, succeeded: true}},
	}
	for _, r := range runs {
		vecs.observe(r.labels, r.f)
		series.observe(r.labels, r.f)
	}
	want, got := exposition(t, vecReg), exposition(t, seriesReg)
	if got != want {
		t.Fatalf("runSeries exposes\n%s\nthe vecs\n%s", got, want)
	}
	if len(got) < 1000 {
		t.Fatalf("the exposition is too short to compare anything:\n%s", got)
	}
}

// BenchmarkRunSeriesMemory reports the bytes a new label set costs in
// runSeries and in the vecs (allocated, B/op): what each hook binding of
// each module keeps.
func BenchmarkRunSeriesMemory(b *testing.B) {
	labels := []string{"module", "hook", "binding", "queue", "activation"}
	f := runFigures{seconds: 0.004, userCPU: 0.002, sysCPU: 0.001, contextBytes: 1024, succeeded: true}
	b.Run("series", func(b *testing.B) {
		s := newRunSeries("p_", labels)
		b.ReportAllocs()
		for i := range b.N {
			s.observe([]string{"m" + string(rune('a'+i%26)) + itoa(i), "h", "beforeHelm", "main", ""}, f)
		}
	})
	b.Run("vecs", func(b *testing.B) {
		v := newVecHookMetrics(prometheus.NewRegistry(), "p_", labels)
		b.ReportAllocs()
		for i := range b.N {
			v.observe([]string{"m" + string(rune('a'+i%26)) + itoa(i), "h", "beforeHelm", "main", ""}, f)
		}
	})
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return string(b[n:])
		}
	}
}

// BenchmarkRunSeriesScrape is one /metrics rendering of 2,000 label sets
// (1,000 modules, two bindings each) in runSeries and in the vecs.
func BenchmarkRunSeriesScrape(b *testing.B) {
	labels := []string{"module", "hook", "binding", "queue", "activation"}
	f := runFigures{seconds: 0.004, userCPU: 0.002, sysCPU: 0.001, contextBytes: 1024, succeeded: true}
	seriesReg, vecReg := prometheus.NewRegistry(), prometheus.NewRegistry()
	s := newRunSeries("p_", labels)
	seriesReg.MustRegister(s)
	v := newVecHookMetrics(vecReg, "p_", labels)
	for i := range 2000 {
		l := []string{"m" + itoa(i/2), "h", []string{"beforeHelm", "afterHelm"}[i%2], "main", ""}
		s.observe(l, f)
		v.observe(l, f)
	}
	for name, reg := range map[string]*prometheus.Registry{"series": seriesReg, "vecs": vecReg} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := reg.Gather(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
