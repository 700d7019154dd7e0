package layout

import (
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// The values of module.yaml's remediation.onUpgradeFailure and
// remediation.onInstallFailure (and of the operator's settings of the same
// names).
const (
	OnUpgradeRollback  = "rollback"
	OnUpgradeNone      = "none"
	OnInstallUninstall = "uninstall"
	OnInstallKeep      = "keep"
)

// UpgradeFailureActions and InstallFailureActions are what may follow a
// failed upgrade and a failed first install.
var (
	UpgradeFailureActions = []string{OnUpgradeRollback, OnUpgradeNone}
	InstallFailureActions = []string{OnInstallUninstall, OnInstallKeep}
)

// Remediation is what is done when a module's release fails: an empty
// field follows the operator's setting (Over).
type Remediation struct {
	// OnUpgradeFailure is OnUpgradeRollback (roll back to the last
	// deployed revision at once), OnUpgradeNone, or "".
	OnUpgradeFailure string
	// OnInstallFailure is OnInstallUninstall (uninstall a first install
	// that failed before its retry), OnInstallKeep, or "".
	OnInstallFailure string
	// Retries is how many failed runs in a row stall the module (0:
	// retried without end); nil follows the operator's setting.
	Retries *int
}

// Over is r with its unset fields taken from base.
func (r Remediation) Over(base Remediation) Remediation {
	if r.OnUpgradeFailure == "" {
		r.OnUpgradeFailure = base.OnUpgradeFailure
	}
	if r.OnInstallFailure == "" {
		r.OnInstallFailure = base.OnInstallFailure
	}
	if r.Retries == nil {
		r.Retries = base.Retries
	}
	return r
}

// Rollback tells whether a failed upgrade is rolled back.
func (r Remediation) Rollback() bool { return r.OnUpgradeFailure == OnUpgradeRollback }

// Uninstall tells whether a failed first install is uninstalled.
func (r Remediation) Uninstall() bool { return r.OnInstallFailure == OnInstallUninstall }

// RetryLimit is how many failed runs in a row stall the module, 0: none.
func (r Remediation) RetryLimit() int {
	if r.Retries == nil {
		return 0
	}
	return *r.Retries
}

// remediation reads module.yaml's `remediation` mapping into r:
//
//	remediation:
//	  onUpgradeFailure: rollback   # or none
//	  onInstallFailure: uninstall  # or keep
//	  retries: 3                   # failed runs in a row, then Stalled; 0: no end
//
// An unknown key under it is an error (a typo would silently keep the
// operator's setting).
func (p yamlReader) remediation(n *yaml.Node, r *Remediation) error {
	readers := map[string]func(key string, v *yaml.Node) error{
		"onUpgradeFailure": func(key string, v *yaml.Node) (err error) {
			r.OnUpgradeFailure, err = p.oneOf(key, v, UpgradeFailureActions)
			return err
		},
		"onInstallFailure": func(key string, v *yaml.Node) (err error) {
			r.OnInstallFailure, err = p.oneOf(key, v, InstallFailureActions)
			return err
		},
		"retries": func(key string, v *yaml.Node) (err error) {
			r.Retries, err = p.count(key, v)
			return err
		},
	}
	return p.eachEntry("remediation", n, func(e yamlEntry, key string) error {
		if read, ok := readers[e.key]; ok {
			return read(key, e.value)
		}
		return p.errorf(key, e.value, "unknown key; want onUpgradeFailure, onInstallFailure or retries")
	})
}

// count reads a whole number of 0 or more; null is nil (the operator's
// setting).
func (p yamlReader) count(key string, n *yaml.Node) (*int, error) {
	text, err := p.scalar(key, n)
	v, bad := strconv.Atoi(text)
	switch {
	case err != nil || text == "":
		return nil, err
	case bad != nil || v < 0:
		return nil, p.errorf(key, n, "want a whole number of 0 or more, got %q", text)
	}
	return &v, nil
}
