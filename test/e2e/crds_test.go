package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// The chart ships the CRDs the operator creates at start when they are
// missing, byte for byte (a copy, since go:embed cannot reach deploy/),
// each with its printer columns and cluster scope.
func TestChartShipsTheOperatorsCRDs(t *testing.T) {
	for _, c := range []struct {
		file    string
		crd     []byte
		columns []string
	}{
		{"modules.yaml", moduleobject.CRD(), []string{"Enabled", "Phase", "Ready", "Version", "Message", "Age"}},
		{"moduleconfigs.yaml", moduleconfig.CRD(), []string{"Enabled", "Version", "Valid", "Message", "Age"}},
	} {
		chart, err := os.ReadFile(filepath.Join(deployDir(), "addon-operator", "crds", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if string(chart) != string(c.crd) {
			t.Errorf("deploy/addon-operator/crds/%s differs from the CRD the operator embeds: copy it", c.file)
		}
		for _, want := range append(c.columns, "Cluster") {
			if !strings.Contains(string(chart), want) {
				t.Errorf("crds/%s lacks %q", c.file, want)
			}
		}
	}
}
