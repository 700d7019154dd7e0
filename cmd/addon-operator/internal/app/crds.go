package app

import (
	"fmt"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/layout"
)

// scanOptions are the settings module dirs are scanned with.
func (cfg Config) scanOptions() layout.ScanOptions {
	return layout.ScanOptions{CRDSkip: cfg.crdSkip(), UnnumberedOrder: cfg.UnnumberedModulesOrder}
}

// crdSkip are the base-name prefixes of crds/ files not applied.
func (cfg Config) crdSkip() []string {
	if cfg.CRDFilterPrefixes == "" {
		return layout.ParseCRDFilterPrefixes(layout.DefaultCRDFilterPrefixes)
	}
	return layout.ParseCRDFilterPrefixes(cfg.CRDFilterPrefixes)
}

// newCRDInstaller applies modules' crds/; once they are served it resets
// mapper, through which the kube actor resolves the bindings' kinds.
func newCRDInstaller(cfg Config, dyn dynamic.Interface, disc discovery.DiscoveryInterface, mapper crds.Resetter) (*crds.Installer, error) {
	setting := cfg.CRDExtraLabels
	if setting == "" {
		setting = crds.DefaultExtraLabels
	}
	labels, err := crds.ParseExtraLabels(setting)
	if err != nil {
		return nil, fmt.Errorf("ADDON_OPERATOR_CRD_EXTRA_LABELS: %w", err)
	}
	return &crds.Installer{Client: dyn, Discovery: disc, Labels: labels, Mapper: mapper,
		Log: cfg.Log.With("component", "crds")}, nil
}
