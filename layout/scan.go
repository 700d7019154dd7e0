package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

// Definition is what a module actor starts from: its directory and the
// static layers of its values.
type Definition struct {
	Names values.Names
	// Dir is the module directory's absolute path.
	Dir string
	// Common is the parsed $MODULES_DIR/values.yaml (all dirs, merged).
	Common values.Sections
	// Own is the module's own values.yaml.
	Own     values.Sections
	Schemas *schema.Set
	// Conversions are the module's settings conversions
	// (openapi/conversions/*.yaml): its settings' latest version.
	Conversions conversion.Chain
	// HasChart is false for a module without Chart.yaml: helm is skipped.
	HasChart bool
	// HasEnabledScript tells whether the module has an `enabled` file;
	// without one, discovery needs no process run.
	HasEnabledScript bool
	// CRDFiles are the module's crds/**.yaml files to apply (CRDFiles),
	// listed when the module is loaded.
	CRDFiles []string
	// Requirements are the requirements of the module's module.yaml (none
	// without one).
	Requirements Requirements
	// Release is the module.yaml's say on how its release is kept.
	Release Release
	// RBAC is module.yaml's `rbac` list (addon-operator rbac).
	RBAC []PolicyRule
	// Version is the `version` of the module's Chart.yaml, "" when absent:
	// what other modules' requirements check.
	Version string
	// ModuleYAMLIgnored are the keys of module.yaml that were accepted but
	// change nothing here, dotted ("weight", "requirements.deckhouse"),
	// sorted: for a debug log.
	ModuleYAMLIgnored []string
	// Warnings are what was dropped or could not be read without leaving
	// the module out (a self-requirement, an unreadable Chart.yaml
	// version), each naming its file: for a warning log.
	Warnings []string
}

// StaticEnabled is the module's say on enabled from its values files.
func (d Definition) StaticEnabled() []map[string]bool {
	return []map[string]bool{d.Common.Enabled, d.Own.Enabled}
}

// ReadCommonValues reads values.yaml of each modules dir and merges them
// in order (a later dir's keys win).
func ReadCommonValues(dirs []string) (values.Sections, error) {
	merged := map[string]any{}
	for _, dir := range dirs {
		file := filepath.Join(dir, "values.yaml")
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return values.Sections{}, fmt.Errorf("read %s: %w", file, err)
		}
		s, err := values.ParseValuesFile(file, data)
		if err != nil {
			return values.Sections{}, err
		}
		merged = values.Merge(merged, sectionsDoc(s))
	}
	return values.SectionsOf("modules values.yaml", merged)
}

// sectionsDoc turns sections back into the document they came from.
func sectionsDoc(s values.Sections) map[string]any {
	doc := map[string]any{}
	if s.Global != nil {
		doc[values.GlobalKey] = s.Global
	}
	for k, v := range s.Modules {
		doc[k] = v
	}
	for k, v := range s.Enabled {
		doc[k+"Enabled"] = v
	}
	return doc
}

// ErrUnseen marks a modules dir or module dir that cannot be seen (missing,
// unreadable, a dangling symlink): not a removal, so nothing of it may be
// uninstalled because of it.
var ErrUnseen = errors.New("cannot be seen")

// LoadError is a module dir, named validly, whose values.yaml or schemas
// cannot be read: the module is left out, but its dir is there, so its
// release is not one "without a module dir" (it is never purged for it).
type LoadError struct {
	Module string
	Err    error
}

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// UnseenModuleError is a module dir, named validly, that cannot be seen
// (a dangling symlink, an unreadable target): the module is left out of
// this look, but its release is kept and it is neither run nor deleted
// until its dir can be seen again. It wraps ErrUnseen.
type UnseenModuleError struct {
	Module string
	Dir    string
	Err    error
}

func (e *UnseenModuleError) Error() string {
	return fmt.Sprintf("module dir %s: %v (a symlink whose target is unreadable or missing): %v", e.Dir, ErrUnseen, e.Err)
}

func (e *UnseenModuleError) Unwrap() []error { return []error{ErrUnseen, e.Err} }

// Unloaded names the modules of errs whose dir is there but could not be
// loaded (LoadError) or seen (UnseenModuleError): their releases are kept.
func Unloaded(errs []error) []string {
	var out []string
	for _, err := range errs {
		if le := (*LoadError)(nil); errors.As(err, &le) {
			out = append(out, le.Module)
		}
		if ue := (*UnseenModuleError)(nil); errors.As(err, &ue) {
			out = append(out, ue.Module)
		}
	}
	return out
}

// UnseenModules maps the modules of errs whose dir cannot be seen
// (UnseenModuleError) to the reason.
func UnseenModules(errs []error) map[string]string {
	out := map[string]string{}
	for _, err := range errs {
		if ue := (*UnseenModuleError)(nil); errors.As(err, &ue) {
			out[ue.Module] = err.Error()
		}
	}
	return out
}

// Scan finds the module directories under dirs, sorted in module order. A
// directory whose name is not a valid module name, or whose values.yaml or
// schemas are broken, is reported in errs and left out; the rest load. A
// modules dir that cannot be read, or a module dir that is a dangling
// symlink, is reported wrapping ErrUnseen. CRD files are filtered by the
// default prefixes (ScanWith takes others).
func Scan(dirs []string, common values.Sections) (defs []Definition, errs []error) {
	return ScanWith(dirs, common, ScanOptions{CRDSkip: ParseCRDFilterPrefixes(DefaultCRDFilterPrefixes)})
}

// ScanOptions are the operator's settings that Scan takes.
type ScanOptions struct {
	// CRDSkip are the base-name prefixes of the crds/ files left out
	// (ADDON_OPERATOR_CRD_FILTER_PREFIXES).
	CRDSkip []string
	// UnnumberedOrder, when set, is the order of a module whose dir has no
	// numeric prefix (ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER, as the
	// original's weight); nil: such modules run after the numbered ones.
	UnnumberedOrder *int
}

// names are a module's names with its order as the options give it.
func (o ScanOptions) names(n values.Names) values.Names {
	if !n.Ordered && o.UnnumberedOrder != nil {
		n.Order, n.Ordered = *o.UnnumberedOrder, true
	}
	return n
}

// ScanWith is Scan with the operator's settings.
func ScanWith(dirs []string, common values.Sections, opts ScanOptions) (defs []Definition, errs []error) {
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("read modules dir %s: %w: %w", dir, ErrUnseen, err))
			continue
		}
		for _, e := range entries {
			ok, err := moduleEntry(dir, e)
			if err != nil {
				errs = append(errs, err)
			}
			if !ok {
				continue
			}
			def, err := load(filepath.Join(dir, e.Name()), common, opts.CRDSkip)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			def.Names = opts.names(def.Names)
			defs = append(defs, def)
		}
	}
	return sortDefinitions(defs, errs)
}

// ListDirs lists the module dirs under dirs by path, without reading them:
// the cheap check whether modules were added or removed.
func ListDirs(dirs []string) ([]string, error) {
	var out []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("read modules dir %s: %w", dir, err)
		}
		for _, e := range entries {
			if !isModuleDir(dir, e) {
				continue
			}
			abs, err := filepath.Abs(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("module dir %s: %w", e.Name(), err)
			}
			out = append(out, abs)
		}
	}
	sort.Strings(out)
	return out, nil
}

// DefinitionStampSep separates a module.yaml's path from its stamp in
// ListDefinitions' entries.
const DefinitionStampSep = "@"

// ListDefinitions adds to the module dirs listed by ListDirs one entry
// per module.yaml, its path and a stamp of its size and modification
// time: the cheap check whether a module's requirements may have changed.
func ListDefinitions(moduleDirs []string) []string {
	out := slices.Clone(moduleDirs)
	for _, dir := range moduleDirs {
		file := filepath.Join(dir, ModuleYAMLFile)
		if info, err := os.Stat(file); err == nil {
			out = append(out, fmt.Sprintf("%s%s%d.%d", file, DefinitionStampSep, info.Size(), info.ModTime().UnixNano()))
		}
	}
	return out
}

func isModuleDir(dir string, e fs.DirEntry) bool {
	ok, _ := moduleEntry(dir, e)
	return ok
}

// moduleEntry tells whether an entry of a modules dir is a module dir. A
// symlink whose target cannot be seen is an error wrapping ErrUnseen (a
// dot-entry or plain file is just not a module).
func moduleEntry(dir string, e fs.DirEntry) (bool, error) {
	if strings.HasPrefix(e.Name(), ".") {
		return false, nil
	}
	path := filepath.Join(dir, e.Name())
	info, err := os.Stat(path)
	if err != nil && e.Type()&fs.ModeSymlink != 0 {
		if names, perr := values.ParseModuleDir(e.Name()); perr == nil {
			abs, _ := filepath.Abs(path)
			return false, &UnseenModuleError{Module: names.Name, Dir: abs, Err: err}
		}
		return false, fmt.Errorf("module dir %s: %w (a symlink whose target is unreadable or missing): %w", path, ErrUnseen, err)
	}
	return err == nil && info.IsDir(), nil
}

func sortDefinitions(defs []Definition, errs []error) ([]Definition, []error) {
	names := make([]values.Names, len(defs))
	for i, d := range defs {
		names[i] = d.Names
	}
	if err := values.CheckUnique(names); err != nil {
		errs = append(errs, err)
	}
	sort.SliceStable(defs, func(i, j int) bool { return values.RunsBefore(defs[i].Names, defs[j].Names) })
	return defs, errs
}

func load(dir string, common values.Sections, crdSkip []string) (Definition, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Definition{}, fmt.Errorf("module dir %s: %w", dir, err)
	}
	names, err := values.ParseModuleDir(filepath.Base(abs))
	if err != nil {
		return Definition{}, fmt.Errorf("module dir %s: %w", abs, err)
	}
	def := Definition{Names: names, Dir: abs, Common: common}
	if def.Own, err = readOwnValues(abs); err != nil {
		return Definition{}, &LoadError{Module: names.Name, Err: err}
	}
	if def.Schemas, err = schema.Load(os.DirFS(abs), "openapi", names.ValuesKey); err != nil {
		return Definition{}, &LoadError{Module: names.Name, Err: fmt.Errorf("module %s: %w", names.Name, err)}
	}
	if def.Conversions, err = conversion.Load(os.DirFS(abs), conversion.Dir); err != nil {
		return Definition{}, &LoadError{Module: names.Name, Err: fmt.Errorf("module %s (dir %s): %w", names.Name, abs, err)}
	}
	// A module dir with templates/ but no Chart.yaml is a chart too
	// (chartrun gives it a minimal Chart.yaml in memory).
	def.HasChart = fileExists(filepath.Join(abs, "Chart.yaml")) || dirExists(filepath.Join(abs, "templates"))
	def.HasEnabledScript = fileExists(filepath.Join(abs, "enabled"))
	if def.CRDFiles, err = CRDFiles(abs, crdSkip); err != nil {
		return Definition{}, &LoadError{Module: names.Name, Err: fmt.Errorf("module %s: %w", names.Name, err)}
	}
	if err := readDefinitionFiles(&def); err != nil {
		return Definition{}, &LoadError{Module: names.Name, Err: err}
	}
	return def, nil
}

// readDefinitionFiles fills def's requirements from module.yaml and its
// version from Chart.yaml.
func readDefinitionFiles(def *Definition) error {
	file, err := ReadModuleYAML(def.Dir, def.Names.Name)
	if err != nil {
		return err
	}
	def.Requirements, def.Release, def.ModuleYAMLIgnored, def.Warnings = file.Requirements, file.Release, file.Ignored, file.Warnings
	def.RBAC = file.RBAC
	// A Chart.yaml that cannot be read only costs the version: the module
	// loads as it did before versions were read, and helm reports the file
	// on the module's run. Modules requiring it see "unparsable version".
	if def.Version, err = ReadChartVersion(def.Dir); err != nil {
		def.Warnings = append(def.Warnings, fmt.Sprintf("%v; the module has no version for requirements", err))
	}
	return nil
}

// readOwnValues reads the module's values.yaml, which may only hold its own
// key and its enabled key.
func readOwnValues(dir string) (values.Sections, error) {
	file := filepath.Join(dir, "values.yaml")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return values.Sections{}, nil
	}
	if err != nil {
		return values.Sections{}, fmt.Errorf("read %s: %w", file, err)
	}
	return values.ParseValuesFile(file, data)
}

func dirExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
