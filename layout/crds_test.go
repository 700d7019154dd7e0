package layout_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

func TestParseCRDFilterPrefixes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{layout.DefaultCRDFilterPrefixes, []string{"doc-", "_"}},
		{" doc- , _ ,x", []string{"doc-", "_", "x"}},
		{"", nil},
		{" , ,", nil},
		{"a,,b,", []string{"a", "b"}},
	} {
		if got := layout.ParseCRDFilterPrefixes(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCRDFilterPrefixes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The crds/ files: .yaml only (not .yml), in subdirs too, base names
// filtered by prefix (directory names are not), sorted.
func TestCRDFiles(t *testing.T) {
	mod := t.TempDir()
	files := []string{"crds/a.yaml", "crds/b.yml", "crds/doc-a.yaml", "crds/_x.yaml", "crds/sub/c.yaml",
		"crds/doc-dir/d.yaml", "crds/readme.md", "templates/e.yaml"}
	for _, f := range files {
		path := filepath.Join(mod, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(mod, n))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		skip []string
		want []string
	}{
		{"default prefixes", layout.ParseCRDFilterPrefixes(layout.DefaultCRDFilterPrefixes),
			abs("crds/a.yaml", "crds/doc-dir/d.yaml", "crds/sub/c.yaml")},
		{"no prefixes", nil, abs("crds/_x.yaml", "crds/a.yaml", "crds/doc-a.yaml", "crds/doc-dir/d.yaml", "crds/sub/c.yaml")},
		{"other prefix", []string{"a"}, abs("crds/_x.yaml", "crds/doc-a.yaml", "crds/doc-dir/d.yaml", "crds/sub/c.yaml")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := layout.CRDFiles(mod, tc.skip)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("CRDFiles = %q, want %q", got, tc.want)
			}
		})
	}
	if got, err := layout.CRDFiles(t.TempDir(), nil); err != nil || got != nil {
		t.Errorf("no crds/: %q, %v; want none", got, err)
	}
}

// Scan lists each module's CRD files when it loads it.
func TestScanListsCRDFiles(t *testing.T) {
	mods := t.TempDir()
	crd := filepath.Join(mods, "001-alpha", "crds", "thing.yaml")
	if err := os.MkdirAll(filepath.Dir(crd), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(crd, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mods, "002-beta"), 0o755); err != nil {
		t.Fatal(err)
	}
	defs, errs := layout.Scan([]string{mods}, values.Sections{})
	if len(errs) > 0 || len(defs) != 2 {
		t.Fatalf("defs %+v, errs %v", defs, errs)
	}
	if !reflect.DeepEqual(defs[0].CRDFiles, []string{crd}) || defs[1].CRDFiles != nil {
		t.Errorf("CRD files %q and %q, want [%s] and none", defs[0].CRDFiles, defs[1].CRDFiles, crd)
	}
	if defs, _ = layout.ScanWith([]string{mods}, values.Sections{}, layout.ScanOptions{CRDSkip: []string{"thing"}}); defs[0].CRDFiles != nil {
		t.Errorf("filtered out by prefix: got %q", defs[0].CRDFiles)
	}
}
