package layout

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// DefaultCRDFilterPrefixes is ADDON_OPERATOR_CRD_FILTER_PREFIXES's default:
// files under crds/ whose base name starts with one of these are not CRDs
// to apply (docs, examples).
const DefaultCRDFilterPrefixes = "doc-,_"

// ParseCRDFilterPrefixes splits the comma list of prefixes, trimmed. Empty
// items are dropped, so an empty setting filters nothing (the original
// skips every file then: a prefix "" matches every name).
func ParseCRDFilterPrefixes(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// CRDFiles lists the module's crds/**.yaml files (not .yml), sorted, less
// those whose base name starts with one of skip; directory names are not
// filtered. A module without crds/ has none.
func CRDFiles(moduleDir string, skip []string) ([]string, error) {
	root := filepath.Join(moduleDir, "crds")
	if !dirExists(root) {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".yaml") || hasAnyPrefix(d.Name(), skip) {
			return nil
		}
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
			return nil // a dangling link or a socket is no CRD file
		}
		out = append(out, path)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list CRD files in %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

func hasAnyPrefix(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
