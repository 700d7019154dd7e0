package layout_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
)

// module.yaml's remediation key is read as written; null or no key follows
// the operator's settings, which Over fills in field by field.
func TestParseModuleYAMLRemediation(t *testing.T) {
	zero, three := 0, 3
	for _, tc := range []struct {
		yaml string
		want layout.Remediation
	}{
		{yaml: ""},
		{yaml: "remediation:\n"},
		{yaml: "remediation:\n  onUpgradeFailure: rollback\n", want: layout.Remediation{OnUpgradeFailure: "rollback"}},
		{yaml: "remediation: {onInstallFailure: uninstall, retries: 3}\n", want: layout.Remediation{OnInstallFailure: "uninstall", Retries: &three}},
		{yaml: "remediation:\n  onUpgradeFailure: none\n  onInstallFailure: keep\n  retries: 0\n",
			want: layout.Remediation{OnUpgradeFailure: "none", OnInstallFailure: "keep", Retries: &zero}},
		{yaml: "remediation:\n  onUpgradeFailure:\n  retries:\n"},
	} {
		got, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
		if err != nil || !reflect.DeepEqual(got.Release.Remediation, tc.want) || len(got.Ignored) != 0 {
			t.Errorf("%q: %+v, ignored %v (%v); want %+v", tc.yaml, got.Release.Remediation, got.Ignored, err, tc.want)
		}
	}
	operator := layout.Remediation{OnUpgradeFailure: "rollback", OnInstallFailure: "uninstall", Retries: &three}
	got := layout.Remediation{OnUpgradeFailure: "none", Retries: &zero}.Over(operator)
	if got.Rollback() || !got.Uninstall() || got.RetryLimit() != 0 {
		t.Errorf("module none/0 over operator rollback/uninstall/3: %+v", got)
	}
	if l := (layout.Remediation{}).Over(operator).RetryLimit(); l != 3 {
		t.Errorf("unset retries over 3: %d", l)
	}
}

// A bad remediation value is an error naming the file, the key and the
// line.
func TestParseModuleYAMLRemediationErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"a list", "remediation: [a]\n", moduleYAMLPath + ": remediation: want a mapping, got a list (line 1)"},
		{"upgrade unknown", "remediation:\n  onUpgradeFailure: uninstall\n",
			moduleYAMLPath + `: remediation.onUpgradeFailure: want one of rollback, none, got "uninstall" (line 2)`},
		{"install unknown", "remediation:\n  onInstallFailure: rollback\n",
			moduleYAMLPath + `: remediation.onInstallFailure: want one of uninstall, keep, got "rollback" (line 2)`},
		{"retries negative", "remediation:\n  retries: -1\n", moduleYAMLPath + `: remediation.retries: want a whole number of 0 or more, got "-1" (line 2)`},
		{"retries text", "remediation:\n  retries: many\n", moduleYAMLPath + `: remediation.retries: want a whole number of 0 or more, got "many" (line 2)`},
		{"typo", "remediation:\n\n  retry: 3\n", moduleYAMLPath + `: remediation.retry: unknown key; want onUpgradeFailure, onInstallFailure or retries (line 3)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
}
