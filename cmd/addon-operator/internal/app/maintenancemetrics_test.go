package app

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// mm_module_maintenance is 1 per module in maintenance; a module back to
// Managed loses its series only.
func TestMaintenanceMetric(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := newMetrics(reg, "addon_operator_")
	m.Maintenance("a", "NoResourceReconciliation")
	m.Maintenance("b", "NoResourceReconciliation")
	m.Maintenance("a", "")
	want := `
# HELP addon_operator_mm_module_maintenance ` + maintenanceHelp + `
# TYPE addon_operator_mm_module_maintenance gauge
addon_operator_mm_module_maintenance{module="b",state="NoResourceReconciliation"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "addon_operator_mm_module_maintenance"); err != nil {
		t.Fatal(err)
	}
	m.Maintenance("b", "")
	if n := testutil.CollectAndCount(m.maintenance); n != 0 {
		t.Fatalf("%d series left after every module is Managed", n)
	}
}
