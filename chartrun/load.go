package chartrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"
)

// ErrNoChart is returned by Render for a module dir with neither Chart.yaml
// nor templates/: such a module has no helm phase (Upgrade reports NoChart).
var ErrNoChart = errors.New("module has no chart (no Chart.yaml, no templates/)")

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// loadChart reads the chart of a module dir. The module's own files (hooks/,
// enabled) are never read: they belong to the operator, may be large
// binaries, and helm would store them in every revision of the release. A
// dir with templates/ but no Chart.yaml gets a minimal one named after the
// release, as the original addon-operator writes one for such modules.
func loadChart(dir, release string) (*chart.Chart, error) {
	hasMeta, hasTemplates := isFile(filepath.Join(dir, "Chart.yaml")), isDir(filepath.Join(dir, "templates"))
	if !hasMeta && !hasTemplates {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoChart)
	}
	rules, err := ignoreRules(dir)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", dir, err)
	}
	rd := chartReader{rules: rules, seen: map[string]bool{}}
	if err := rd.readDir(dir, ""); err != nil {
		return nil, fmt.Errorf("load chart %s: %w", dir, err)
	}
	if !hasMeta {
		meta := fmt.Sprintf("apiVersion: v2\nname: %s\nversion: 0.1.0\n", release)
		rd.files = append(rd.files, &loader.BufferedFile{Name: "Chart.yaml", Data: []byte(meta)})
	}
	c, err := loader.LoadFiles(rd.files)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", dir, err)
	}
	return c, nil
}

// moduleOnly names the top-level entries of a module dir that are the
// operator's and not the chart's.
func moduleOnly(name string) bool {
	return name == "hooks" || name == "enabled"
}

func ignoreRules(dir string) (*ignore.Rules, error) {
	rules := ignore.Empty()
	file := filepath.Join(dir, ignore.HelmIgnore)
	if isFile(file) {
		var err error
		if rules, err = ignore.ParseFile(file); err != nil {
			return nil, fmt.Errorf("%s: %w", ignore.HelmIgnore, err)
		}
	}
	rules.AddDefaults()
	return rules, nil
}

// chartReader collects a chart's files, following symlinks as helm does
// (module dirs often link shared templates) and visiting each real
// directory once, so that a link loop ends.
type chartReader struct {
	rules *ignore.Rules
	seen  map[string]bool
	files []*loader.BufferedFile
}

func (rd *chartReader) readDir(abs, rel string) error {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	if rd.seen[real] {
		return nil
	}
	rd.seen[real] = true
	entries, err := os.ReadDir(abs)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if rel == "" && moduleOnly(e.Name()) {
			continue
		}
		if err := rd.readEntry(filepath.Join(abs, e.Name()), path.Join(rel, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func (rd *chartReader) readEntry(abs, rel string) error {
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if rd.rules.Ignore(rel, fi) {
		return nil
	}
	if fi.IsDir() {
		return rd.readDir(abs, rel)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", rel)
	}
	if fi.Size() > loader.MaxDecompressedFileSize {
		return fmt.Errorf("%s: larger than %d bytes", rel, loader.MaxDecompressedFileSize)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	rd.files = append(rd.files, &loader.BufferedFile{Name: rel, Data: bytes.TrimPrefix(data, utf8BOM)})
	return nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
