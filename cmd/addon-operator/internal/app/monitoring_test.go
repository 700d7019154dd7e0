package app

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// The dashboard and the alerts under deploy/monitoring parse, and every
// metric they use is one the operator exports.
func TestMonitoringUsesExportedMetrics(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "deploy", "monitoring")
	m := newMetrics(prometheus.NewRegistry(), "addon_operator_")
	m.registerInspector(inspect.NewRegistry(supervision.RealClock{}))
	m.registerRunWatch(worker.NewRunWatch(supervision.RealClock{}, slog.New(slog.DiscardHandler), 0))
	exported, histograms := m.names(), histogramNames(m)
	var exprs []string
	var dash struct {
		Panels []struct {
			Targets []struct{ Expr string } `json:"targets"`
		} `json:"panels"`
	}
	readInto(t, filepath.Join(dir, "dashboard.json"), &dash, json.Unmarshal)
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	var rule struct {
		Spec struct {
			Groups []struct {
				Rules []struct{ Expr string } `json:"rules"`
			} `json:"groups"`
		} `json:"spec"`
	}
	readInto(t, filepath.Join(dir, "alerts.yaml"), &rule, func(b []byte, v any) error { return yaml.Unmarshal(b, v) })
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
		}
	}
	names := regexp.MustCompile(`addon_operator_[a-z_]+`)
	for _, e := range exprs {
		for _, n := range names.FindAllString(e, -1) {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_sum"), "_count")
			if !slices.Contains(exported, n) && (base == n || !histograms[base]) {
				t.Errorf("%q uses %s, which the operator does not export", e, n)
			}
		}
	}
	if len(exprs) < 10 {
		t.Fatalf("only %d expressions found", len(exprs))
	}
}

// histogramNames are the names of the histograms among the metrics: only
// they have _bucket, _sum and _count series.
func histogramNames(m *metrics) map[string]bool {
	out := map[string]bool{}
	for _, c := range m.collectors {
		var descs []*prometheus.Desc
		switch c := c.(type) {
		case *prometheus.HistogramVec, prometheus.Histogram:
			ch := make(chan *prometheus.Desc, 16)
			go func() { c.Describe(ch); close(ch) }()
			for d := range ch {
				descs = append(descs, d)
			}
		case *runSeries:
			descs = c.histograms()
		}
		for _, d := range descs {
			if sub := fqName.FindStringSubmatch(d.String()); sub != nil {
				out[sub[1]] = true
			}
		}
	}
	return out
}

func readInto(t *testing.T, path string, v any, unmarshal func([]byte, any) error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
