package layout_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// A modules dir that does not exist and a module dir that is a dangling
// symlink cannot be seen: Scan reports each wrapping ErrUnseen and naming
// it (the module dir as an UnseenModuleError, whose release is kept like
// an unloadable module's), while a broken module is an ordinary error and
// the others load.
func TestScanReportsWhatCannotBeSeen(t *testing.T) {
	root := t.TempDir()
	mods, missing := filepath.Join(root, "modules"), filepath.Join(root, "unmounted")
	for _, dir := range []string{"001-alpha", "002-broken"} {
		if err := os.MkdirAll(filepath.Join(mods, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mods, "002-broken", "values.yaml"), []byte("broken: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(mods, "003-gamma")
	if err := os.Symlink(filepath.Join(root, "volume", "gamma"), dangling); err != nil {
		t.Fatal(err)
	}
	defs, errs := layout.Scan([]string{mods, missing}, values.Sections{})
	if len(defs) != 1 || defs[0].Names.Name != "alpha" {
		t.Fatalf("defs %+v, want alpha only", defs)
	}
	var unseen, other []string
	for _, err := range errs {
		if errors.Is(err, layout.ErrUnseen) {
			unseen = append(unseen, err.Error())
		} else {
			other = append(other, err.Error())
		}
	}
	if len(unseen) != 2 || !strings.Contains(unseen[0], dangling) || !strings.Contains(unseen[1], missing) {
		t.Fatalf("unseen errors %q, want the dangling symlink %s and the modules dir %s", unseen, dangling, missing)
	}
	if len(other) != 1 || !strings.Contains(other[0], "002-broken") {
		t.Fatalf("other errors %q, want the broken module's", other)
	}
	if got := layout.Unloaded(errs); !reflect.DeepEqual(got, []string{"broken", "gamma"}) {
		t.Fatalf("Unloaded = %v, want [broken gamma]: their dirs are there, their releases must not be purged", got)
	}
	if got := layout.UnseenModules(errs); len(got) != 1 || !strings.Contains(got["gamma"], dangling) {
		t.Fatalf("UnseenModules = %v, want gamma naming %s", got, dangling)
	}
	listed, err := layout.ListDirs([]string{mods})
	if err != nil || !reflect.DeepEqual(listed, []string{filepath.Join(mods, "001-alpha"), filepath.Join(mods, "002-broken")}) {
		t.Fatalf("ListDirs = %v, %v; want the two dirs that can be seen", listed, err)
	}
	if got := layout.ListDefinitions(listed); !reflect.DeepEqual(got, listed) {
		t.Fatalf("ListDefinitions = %v, want the dirs alone: no module.yaml", got)
	}
	yaml := filepath.Join(mods, "001-alpha", "module.yaml")
	if err := os.WriteFile(yaml, []byte("requirements: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := layout.ListDefinitions(listed)
	if len(got) != 3 || !strings.HasPrefix(got[2], yaml+layout.DefinitionStampSep+"17.") {
		t.Fatalf("ListDefinitions = %v, want the dirs and a stamp of %s (size 17)", got, yaml)
	}
}

// Modules without a numeric prefix run after the numbered ones; with
// ScanOptions.UnnumberedOrder (ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER) they
// take that order, as the original's weight, sorting by name among the
// modules of that number.
func TestScanOrdersUnnumberedModules(t *testing.T) {
	mods := t.TempDir()
	for _, dir := range []string{"001-alpha", "002-gamma", "beta", "zeta"} {
		if err := os.MkdirAll(filepath.Join(mods, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	order := func(opts layout.ScanOptions) []string {
		defs, errs := layout.ScanWith([]string{mods}, values.Sections{}, opts)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var out []string
		for _, d := range defs {
			out = append(out, d.Names.Name)
		}
		return out
	}
	if got, want := order(layout.ScanOptions{}), []string{"alpha", "gamma", "beta", "zeta"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order without the setting %v, want %v", got, want)
	}
	two := 2
	if got, want := order(layout.ScanOptions{UnnumberedOrder: &two}), []string{"alpha", "beta", "gamma", "zeta"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order with unnumbered modules at 2 %v, want %v", got, want)
	}
	zero := 0
	if got, want := order(layout.ScanOptions{UnnumberedOrder: &zero}), []string{"beta", "zeta", "alpha", "gamma"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order with unnumbered modules at 0 %v, want %v", got, want)
	}
}
