package configmap_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

func TestParseMaintenance(t *testing.T) {
	tests := []struct {
		name    string
		data    map[string]string
		want    map[string]bool // nil: no module in maintenance
		wantErr string
	}{
		{name: "NoResourceReconciliation turns it on",
			data: map[string]string{"someModuleMaintenance": "NoResourceReconciliation"},
			want: map[string]bool{"someModule": true}},
		{name: "the lower-case spelling too",
			data: map[string]string{"someModuleMaintenance": "noresourcereconciliation"},
			want: map[string]bool{"someModule": true}},
		{name: "surrounding blanks are not a value",
			data: map[string]string{"someModuleMaintenance": " NoResourceReconciliation\n"},
			want: map[string]bool{"someModule": true}},
		{name: "empty is Managed",
			data: map[string]string{"someModuleMaintenance": ""}},
		{name: "missing is Managed",
			data: map[string]string{"someModule": "a: 1"}},
		{name: "another value is an error naming the key",
			data:    map[string]string{"someModuleMaintenance": "Managed", "otherMaintenance": "NoResourceReconciliation"},
			wantErr: `ConfigMap key "someModuleMaintenance": invalid values section: want "NoResourceReconciliation" (or "" to manage the module), got "Managed"`},
		{name: "mixed case other than the two spellings is an error",
			data:    map[string]string{"someModuleMaintenance": "noResourceReconciliation"},
			wantErr: `ConfigMap key "someModuleMaintenance"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := configmap.Parse(tt.data)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, values.ErrInvalidSection) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Maintenance) != len(tt.want) {
				t.Fatalf("Maintenance = %v, want %v", s.Maintenance, tt.want)
			}
			for k := range tt.want {
				if !s.Maintenance[k] {
					t.Errorf("Maintenance = %v, want %v", s.Maintenance, tt.want)
				}
			}
		})
	}
}

// A maintenance key is neither a module section nor unknown, and leaves the
// module's section and enabled key alone.
func TestParseMaintenanceKeepsTheModulesOtherKeys(t *testing.T) {
	s, err := configmap.Parse(map[string]string{
		"someModule":            "a: 1",
		"someModuleEnabled":     "true",
		"someModuleMaintenance": "NoResourceReconciliation",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !values.Equal(s.Modules, map[string]any{"someModule": map[string]any{"a": 1.0}}) {
		t.Errorf("Modules = %v", s.Modules)
	}
	if !s.Enabled["someModule"] || len(s.Enabled) != 1 {
		t.Errorf("Enabled = %v", s.Enabled)
	}
	if len(s.Unknown) != 0 || !s.Maintenance["someModule"] {
		t.Errorf("Unknown = %v, Maintenance = %v", s.Unknown, s.Maintenance)
	}
}

func TestDiffMaintenance(t *testing.T) {
	on := values.Sections{Maintenance: map[string]bool{"a": true, "b": true}}
	off := values.Sections{Maintenance: map[string]bool{"b": true}}
	c := values.Diff(on, off)
	if strings.Join(c.Maintenance, ",") != "a" || c.IsEmpty() {
		t.Errorf("Diff = %+v", c)
	}
	if c := values.Diff(off, off); !c.IsEmpty() {
		t.Errorf("Diff of equal = %+v", c)
	}
}
