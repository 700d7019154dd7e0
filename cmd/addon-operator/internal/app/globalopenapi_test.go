package app

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// The global hooks dir's openapi/conversions are read as a module's are:
// the chain's latest version, and a load error naming the file for a gap
// or a bad program; no dir or no conversions is version 1.
func TestReadGlobalOpenAPI(t *testing.T) {
	v2 := "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n"
	tests := []struct {
		name   string
		files  map[string]string
		latest int
		err    string // the error holds it; "" none
	}{
		{name: "no openapi", files: map[string]string{"hook.sh": "#!/bin/sh\n"}, latest: 1},
		{name: "chain v2 v3", latest: 3, files: map[string]string{
			"openapi/conversions/v2.yaml": v2, "openapi/conversions/v3.yaml": "version: 3\nconversions: [.]\n"}},
		{name: "gap names the file", files: map[string]string{
			"openapi/conversions/v2.yaml": v2, "openapi/conversions/v4.yaml": "version: 4\nconversions: [.]\n"},
			err: "global settings conversions (GLOBAL_HOOKS_DIR "},
		{name: "bad jq names the key", files: map[string]string{"openapi/conversions/v2.yaml": "version: 2\nconversions: ['.a |']\n"},
			err: "openapi/conversions/v2.yaml: conversions: settings conversion"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := scenario.TempTree(t, tc.files, 0o644)
			_, chain, err := readGlobalOpenAPI(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q in it", err, tc.err)
				}
				return
			}
			if err != nil || chain.Latest() != tc.latest {
				t.Fatalf("latest %d, err %v; want %d", chain.Latest(), err, tc.latest)
			}
		})
	}
	_, _, err := readGlobalOpenAPI(scenario.TempTree(t, map[string]string{
		"openapi/conversions/v2.yaml": v2, "openapi/conversions/v4.yaml": "version: 4\nconversions: [.]\n"}, 0o644))
	if err == nil || !strings.Contains(err.Error(), "openapi/conversions/v4.yaml: version:") || !strings.Contains(err.Error(), "gap") {
		t.Fatalf("gap: %v, want the file v4.yaml and the gap named", err)
	}
}
