package settings_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
)

// Remediation is off by default (today's behaviour: no rollback, no
// uninstall, retried without end); each variable sets it for every module;
// a bad value is a start-up error naming the variable.
func TestRemediation(t *testing.T) {
	r := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops").Remediation
	if r.Rollback() || r.Uninstall() || r.RetryLimit() != 0 {
		t.Fatalf("defaults: %+v", r)
	}
	r = load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_REMEDIATION_ON_UPGRADE_FAILURE", "rollback",
		"ADDON_OPERATOR_REMEDIATION_ON_INSTALL_FAILURE", "uninstall", "ADDON_OPERATOR_REMEDIATION_RETRIES", "3").Remediation
	if !r.Rollback() || !r.Uninstall() || r.RetryLimit() != 3 {
		t.Fatalf("set: %+v", r)
	}
	for _, tc := range [][2]string{{"ADDON_OPERATOR_REMEDIATION_ON_UPGRADE_FAILURE", "uninstall"},
		{"ADDON_OPERATOR_REMEDIATION_ON_INSTALL_FAILURE", "rollback"}, {"ADDON_OPERATOR_REMEDIATION_RETRIES", "-1"},
		{"ADDON_OPERATOR_REMEDIATION_RETRIES", "three"}} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", tc[0], tc[1]), io.Discard)
		if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), tc[0]+"=\""+tc[1]+"\"") {
			t.Errorf("%s=%s: err = %v, want a bad setting naming it", tc[0], tc[1], err)
		}
	}
}
