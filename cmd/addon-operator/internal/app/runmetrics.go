package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/actors/worker"
)

// runWatchCollector exports, per queue, how long the oldest hook run in
// progress has been running (0: none), read from the RunWatch at scrape
// time.
type runWatchCollector struct {
	watch *worker.RunWatch
	desc  *prometheus.Desc
}

func (c runWatchCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c runWatchCollector) Collect(ch chan<- prometheus.Metric) {
	for queue, d := range c.watch.Oldest() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, d.Seconds(), queue)
	}
}

func (m *metrics) registerRunWatch(w *worker.RunWatch) {
	m.register(m.reg, runWatchCollector{watch: w, desc: prometheus.NewDesc(m.prefix+"hook_oldest_running_seconds",
		"How long the oldest hook run in progress in each queue has been running (0: none).", []string{"queue"}, nil)})
}
