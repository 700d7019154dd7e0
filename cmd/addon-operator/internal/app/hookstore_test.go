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

// series gathers store as "name{k=v,...}" -> value (gauges and counters).
func series(t *testing.T, store *hookStore) map[string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(store)
	families, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			out[f.GetName()+"{"+labelKey(labels)+"}"] = m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	return out
}

// shell-operator's METRICS_FROM_HOOKS: "The metric name is used as-is";
// a {PREFIX} in it is the metrics prefix (its metric storage's
// resolveMetricName). The older form's "add" and "set" keys work too.
func TestHookStoreNamesAreUsedAsIs(t *testing.T) {
	store := newHookStore("addon_operator_")
	ops, err := hookexec.ParseMetrics([]byte(`{"name":"plain_total","add":2}
{"name":"{PREFIX}prefixed","action":"set","value":3}`))
	if err != nil {
		t.Fatal(err)
	}
	store.apply("", "hook", ops)
	got := series(t, store)
	want := map[string]float64{"plain_total{hook=hook,}": 2, "addon_operator_prefixed{hook=hook,}": 3}
	if len(got) != len(want) {
		t.Fatalf("series %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("series %v, want %s = %v", got, k, v)
		}
	}
}

// shell-operator's grouped metrics: "When Shell-operator receives
// operations with the group field, it expires previous metrics with the
// same group and applies new metric values"; an expire of the group
// removes them; ungrouped series stay.
func TestHookStoreGroupIsReplacedByEachRun(t *testing.T) {
	store := newHookStore("p_")
	set := func(obj string, v float64) hookexec.MetricOp {
		return hookexec.MetricOp{Name: "objs", Action: hookexec.MetricSet, Value: v, Group: "g", Labels: map[string]string{"obj": obj}}
	}
	store.apply("m", "h", []hookexec.MetricOp{set("a", 1), set("b", 1),
		{Name: "runs", Action: hookexec.MetricAdd, Value: 1}})
	store.apply("m", "h", []hookexec.MetricOp{set("b", 2)})
	got := series(t, store)
	if _, ok := got["objs{hook=h,module=m,obj=a,}"]; ok || got["objs{hook=h,module=m,obj=b,}"] != 2 || len(got) != 2 {
		t.Fatalf("after the second run of group g: %v, want only obj=b (2) and the ungrouped runs", got)
	}
	store.apply("m", "h", []hookexec.MetricOp{{Action: hookexec.MetricExpire, Group: "g"}})
	if got := series(t, store); len(got) != 1 || got["runs{hook=h,module=m,}"] != 1 {
		t.Fatalf("after expire of group g: %v, want only the ungrouped runs", got)
	}
}
