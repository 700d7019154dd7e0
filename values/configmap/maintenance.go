package configmap

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/addon-actors/addon-operator/values"
)

// MaintenanceSuffix ends the ConfigMap key that puts a module in
// maintenance mode: "someModuleMaintenance" (UPSTREAM.md §7).
const MaintenanceSuffix = "Maintenance"

// NoResourceReconciliation is the maintenance state that stops helm and the
// absent-resources healing of a module while its hooks keep running, as
// the original spells it (and as its metric's state label reads).
const NoResourceReconciliation = "NoResourceReconciliation"

// moduleKeyOfMaintenanceKey returns the values key x of an "xMaintenance"
// key. An enabled key is never one ("xMaintenanceEnabled" enables module
// x-maintenance), so the suffix is looked at after "Enabled".
func moduleKeyOfMaintenanceKey(key string) (string, bool) {
	if _, ok := values.ModuleKeyOfEnabledKey(key); ok {
		return "", false
	}
	x, ok := strings.CutSuffix(key, MaintenanceSuffix)
	if !ok || x == "" {
		return "", false
	}
	if _, err := values.ModuleNameOf(x); err != nil {
		return "", false
	}
	return x, true
}

// parseMaintenance reads the value of a maintenance key: on for
// NoResourceReconciliation (or all lower-case, which the original accepts
// too), off for "" (Managed); anything else is an error.
func parseMaintenance(raw string) (bool, error) {
	switch v := strings.TrimSpace(raw); v {
	case NoResourceReconciliation, strings.ToLower(NoResourceReconciliation):
		return true, nil
	case "":
		return false, nil
	default:
		return false, fmt.Errorf("%w: want %q (or %q to manage the module), got %q",
			values.ErrInvalidSection, NoResourceReconciliation, "", v)
	}
}

// splitMaintenance takes the maintenance keys out of data: the modules in
// maintenance, the rest of data, and an error naming each bad key.
func splitMaintenance(data map[string]string) (map[string]bool, map[string]string, []error) {
	var on map[string]bool
	var errs []error
	rest := make(map[string]string, len(data))
	for _, key := range slices.Sorted(maps.Keys(data)) {
		module, ok := moduleKeyOfMaintenanceKey(key)
		if !ok {
			rest[key] = data[key]
			continue
		}
		isOn, err := parseMaintenance(data[key])
		if err != nil {
			errs = append(errs, fmt.Errorf("ConfigMap key %q: %w", key, err))
			continue
		}
		if isOn {
			if on == nil {
				on = map[string]bool{}
			}
			on[module] = true
		}
	}
	return on, rest, errs
}
