package inspect

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Collector exposes the registry as actor_mailbox_length{actor},
// actor_messages_total{actor} and actor_restarts_total{actor}, read at
// scrape time.
type Collector struct {
	reg      *Registry
	length   *prometheus.Desc
	messages *prometheus.Desc
	restarts *prometheus.Desc
}

// NewCollector returns a collector for reg whose metric names start with
// prefix (for example "addon_operator_").
func NewCollector(reg *Registry, prefix string) *Collector {
	label := []string{"actor"}
	return &Collector{
		reg:      reg,
		length:   prometheus.NewDesc(prefix+"actor_mailbox_length", "Messages waiting in the actor's mailbox.", label, nil),
		messages: prometheus.NewDesc(prefix+"actor_messages_total", "Messages the actor has handled.", label, nil),
		restarts: prometheus.NewDesc(prefix+"actor_restarts_total", "Restarts of the actor after a panic.", label, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.length
	ch <- c.messages
	ch <- c.restarts
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.reg.Snapshot() {
		ch <- prometheus.MustNewConstMetric(c.length, prometheus.GaugeValue, float64(a.MailboxLength), a.Path)
		ch <- prometheus.MustNewConstMetric(c.messages, prometheus.CounterValue, float64(a.Processed), a.Path)
		ch <- prometheus.MustNewConstMetric(c.restarts, prometheus.CounterValue, float64(a.Restarts), a.Path)
	}
}
