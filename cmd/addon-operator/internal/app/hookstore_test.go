package app

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/hookexec"
)

// Two hooks that write the same metric (the nested hooks of one batch
// executable do) are one family with a series each.
func TestHookStoreSameMetricFromTwoHooks(t *testing.T) {
	store := newHookStore("p_")
	op := []hookexec.MetricOp{{Name: "runs_total", Action: hookexec.MetricAdd, Value: 1}}
	store.apply("m", "hooks/bin:a:0", op)
	store.apply("m", "hooks/bin:b:1", op)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(store)
	families, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	if len(families) != 1 || len(families[0].GetMetric()) != 2 {
		t.Fatalf("got %v", families)
	}
}
