package settings

import (
	"errors"
	"fmt"
)

// removedVariables are the original's settings of helm 2 and Tiller: the
// original refuses to start when one is set (UPSTREAM.md §9), so that a
// Deployment still written for helm 2 fails loudly instead of running
// with settings nobody reads.
func removedVariables() []string {
	return []string{"ADDON_OPERATOR_TILLER_LISTEN_PORT", "ADDON_OPERATOR_TILLER_PROBE_LISTEN_PORT",
		"TILLER_MAX_HISTORY", "TILLER_BIN_PATH", "HELM2"}
}

// refuseRemoved is an error naming every removed variable that is set.
func refuseRemoved(lookup func(string) (string, bool)) error {
	var errs []error
	for _, name := range removedVariables() {
		if v, ok := lookup(name); ok && v != "" {
			errs = append(errs, fmt.Errorf("%w: %s=%q: helm 2 and Tiller are not supported; remove it", ErrBadSetting, name, v))
		}
	}
	return errors.Join(errs...)
}
