package settings_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
)

// The crds/ settings: defaults, an empty variable is the default (as for
// every setting), and extra labels that are not a=b are a bad setting.
func TestCRDSettings(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_CRD_FILTER_PREFIXES", "")
	if s.CRDFilterPrefixes != "doc-,_" || s.CRDExtraLabels != "heritage=addon-operator" {
		t.Errorf("defaults: %q, %q", s.CRDFilterPrefixes, s.CRDExtraLabels)
	}
	s = load(t, []string{"--crd-extra-labels", "a=b"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_CRD_FILTER_PREFIXES", ",")
	if s.CRDFilterPrefixes != "," || s.CRDExtraLabels != "a=b" {
		t.Errorf("set: %q, %q", s.CRDFilterPrefixes, s.CRDExtraLabels)
	}
	_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_CRD_EXTRA_LABELS", "a=b,c"), io.Discard)
	if !errors.Is(err, settings.ErrBadSetting) || !strings.Contains(err.Error(), "ADDON_OPERATOR_CRD_EXTRA_LABELS") {
		t.Errorf("err = %v, want a bad setting naming ADDON_OPERATOR_CRD_EXTRA_LABELS", err)
	}
}
