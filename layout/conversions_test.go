package layout_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

// A module's openapi/conversions/ load with it: its settings' latest
// version is the highest found; a chain with a gap leaves the module out
// with a load error naming the file and the key, and its release is kept
// (Unloaded), as for a broken values.yaml.
func TestScanReadsConversions(t *testing.T) {
	root := scenario.TempTree(t, map[string]string{
		"001-web/openapi/conversions/v2.yaml": "version: 2\nconversions: [del(.old)]\n",
		"001-web/openapi/conversions/v3.yaml": "version: 3\nconversions: [.]\n",
		"002-gap/openapi/conversions/v2.yaml": "version: 2\nconversions: [.]\n",
		"002-gap/openapi/conversions/v4.yaml": "version: 4\nconversions: [.]\n",
		"003-plain/values.yaml":               "plain: {}\n",
	}, 0o644)
	defs, errs := layout.Scan([]string{root}, values.Sections{})
	if len(defs) != 2 || defs[0].Names.Name != "web" || defs[1].Names.Name != "plain" {
		t.Fatalf("defs %+v, want web and plain", defs)
	}
	if defs[0].Conversions.Latest() != 3 || defs[1].Conversions.Latest() != 1 {
		t.Fatalf("latest versions %d and %d, want 3 and 1", defs[0].Conversions.Latest(), defs[1].Conversions.Latest())
	}
	if len(errs) != 1 || !errors.Is(errs[0], conversion.ErrConversion) {
		t.Fatalf("errs %v, want the gap's", errs)
	}
	want := "module gap (dir " + filepath.Join(root, "002-gap") + "): openapi/conversions/v4.yaml: version: "
	if msg := errs[0].Error(); !strings.Contains(msg, want) || !strings.Contains(msg, "gap") {
		t.Fatalf("err %q, want it to name %q", msg, want)
	}
	if got := layout.Unloaded(errs); len(got) != 1 || got[0] != "gap" {
		t.Fatalf("Unloaded = %v, want [gap]: its dir is there", got)
	}
}
