package settings

import (
	"github.com/addon-actors/addon-operator/layout"
)

// remediationTable are the settings of what follows a failed release, for
// every module; a module.yaml's `remediation` wins, key by key.
func remediationTable() []setting {
	return []setting{
		{"remediation-on-upgrade-failure", layout.OnUpgradeNone, "after a failed helm upgrade: rollback (to the last deployed revision at once; the module stays failing and is retried) or none", []string{"ADDON_OPERATOR_REMEDIATION_ON_UPGRADE_FAILURE"}},
		{"remediation-on-install-failure", layout.OnInstallKeep, "after a failed first install: uninstall (before the retry) or keep", []string{"ADDON_OPERATOR_REMEDIATION_ON_INSTALL_FAILURE"}},
		{"remediation-retries", "0", "failed module runs in a row after which the module is Stalled (not retried until something changes for it); 0: retried without end", []string{"ADDON_OPERATOR_REMEDIATION_RETRIES"}},
	}
}

// remediation reads remediationTable; a bad value names its variable.
func (c *converter) remediation(v map[string]string) layout.Remediation {
	r := layout.Remediation{OnUpgradeFailure: v["remediation-on-upgrade-failure"],
		OnInstallFailure: v["remediation-on-install-failure"]}
	c.oneOf(r.OnUpgradeFailure, "remediation-on-upgrade-failure", layout.UpgradeFailureActions...)
	c.oneOf(r.OnInstallFailure, "remediation-on-install-failure", layout.InstallFailureActions...)
	retries := c.integer(v, "remediation-retries")
	r.Retries = &retries
	return r
}
