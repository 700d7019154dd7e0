package values

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// GlobalKey is the root key of the global values.
const GlobalKey = "global"

// EnabledSuffix ends the key that enables or disables a module.
const EnabledSuffix = "Enabled"

// maxNameLength is helm's limit for a release name, which a module name is.
const maxNameLength = 53

var (
	// ErrInvalidModuleName is returned for a module directory or name that
	// cannot name a module.
	ErrInvalidModuleName = errors.New("invalid module name")
	// ErrDuplicateModule is returned when two module directories give the
	// same module name.
	ErrDuplicateModule = errors.New("duplicate module")
)

var (
	orderPrefix = regexp.MustCompile(`^([0-9]+)-(.*)$`)
	kebabName   = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// Names are the names of one module, all derived from its directory.
type Names struct {
	// Dir is the module's directory name, e.g. "001-some-module".
	Dir string
	// Order is the numeric prefix of Dir (1 for "001-"), 0 when Ordered is
	// false; for a Dir without one, the order the operator's setting gives
	// (layout.ScanOptions.UnnumberedOrder), if any.
	Order int
	// Ordered tells whether the module has an Order: Dir's numeric prefix,
	// or the setting's.
	Ordered bool
	// Name is the module name and helm release name, e.g. "some-module".
	Name string
	// ValuesKey is the camelCase root key of the module's values, e.g. "someModule".
	ValuesKey string
	// EnabledKey is ValuesKey + "Enabled", e.g. "someModuleEnabled".
	EnabledKey string
}

// ParseModuleDir derives the names of the module in directory dir
// ("NNN-kebab-name" or "kebab-name"). A leading run of digits and a dash is
// always the order prefix.
func ParseModuleDir(dir string) (Names, error) {
	name, order, ordered := dir, 0, false
	if m := orderPrefix.FindStringSubmatch(dir); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return Names{}, fmt.Errorf("module dir %q: order prefix %q: %w", dir, m[1], ErrInvalidModuleName)
		}
		name, order, ordered = m[2], n, true
	}
	names, err := NamesOf(name)
	if err != nil {
		return Names{}, fmt.Errorf("module dir %q: %w", dir, err)
	}
	names.Dir, names.Order, names.Ordered = dir, order, ordered
	return names, nil
}

// NamesOf derives the values and enabled keys of the module called name and
// checks that the name survives the round trip name -> values key -> name,
// without which two modules' ConfigMap keys could not be told apart.
func NamesOf(name string) (Names, error) {
	if err := checkModuleName(name); err != nil {
		return Names{}, err
	}
	key := camelCase(name)
	if back := kebabCase(key); back != name {
		return Names{}, fmt.Errorf("module name %q: values key %q reads back as module %q: %w",
			name, key, back, ErrInvalidModuleName)
	}
	return Names{Dir: name, Name: name, ValuesKey: key, EnabledKey: key + EnabledSuffix}, nil
}

func checkModuleName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("module name is empty: %w", ErrInvalidModuleName)
	case len(name) > maxNameLength:
		return fmt.Errorf("module name %q is longer than %d characters (a helm release name): %w",
			name, maxNameLength, ErrInvalidModuleName)
	case !kebabName.MatchString(name):
		return fmt.Errorf("module name %q: want lower-case ASCII letters and digits in dash-separated words, "+
			"starting with a letter: %w", name, ErrInvalidModuleName)
	case name == GlobalKey:
		return fmt.Errorf("module name %q is the key of the global values: %w", name, ErrInvalidModuleName)
	case strings.HasSuffix(camelCase(name), EnabledSuffix):
		return fmt.Errorf("module name %q: its values key %q reads as the enabled key of module %q: %w",
			name, camelCase(name), strings.TrimSuffix(name, "-enabled"), ErrInvalidModuleName)
	}
	return nil
}

// ModuleNameOf returns the module name whose values key is key, or an error
// when key is not the values key of any valid module name.
func ModuleNameOf(key string) (string, error) {
	name := kebabCase(key)
	names, err := NamesOf(name)
	if err != nil {
		return "", fmt.Errorf("values key %q: %w", key, err)
	}
	if names.ValuesKey != key {
		return "", fmt.Errorf("values key %q is not camelCase (module %q has key %q): %w",
			key, name, names.ValuesKey, ErrInvalidModuleName)
	}
	return name, nil
}

// camelCase turns "some-module-2x" into "someModule2x".
func camelCase(name string) string {
	var b strings.Builder
	upper := false
	for _, r := range name {
		switch {
		case r == '-':
			upper = true
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// kebabCase turns "someModule2x" into "some-module2x": only an upper-case
// letter starts a new word, which is why "mod-001" does not round-trip.
func kebabCase(key string) string {
	var b strings.Builder
	for i, r := range key {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SortModules orders modules as they run: numbered ones by their prefix, then
// the unnumbered ones, each group by name.
func SortModules(modules []Names) {
	sort.SliceStable(modules, func(i, j int) bool { return RunsBefore(modules[i], modules[j]) })
}

// RunsBefore is module order: numbered modules first, by number, then by
// name.
func RunsBefore(a, b Names) bool {
	if a.Ordered != b.Ordered {
		return a.Ordered
	}
	if a.Order != b.Order {
		return a.Order < b.Order
	}
	return a.Name < b.Name
}

// CheckUnique returns an [ErrDuplicateModule] error naming both directories
// when two modules share a name (and so a values key).
func CheckUnique(modules []Names) error {
	seen := make(map[string]string, len(modules))
	for _, m := range modules {
		if dir, ok := seen[m.Name]; ok {
			return fmt.Errorf("module %q in dirs %q and %q: %w", m.Name, dir, m.Dir, ErrDuplicateModule)
		}
		seen[m.Name] = m.Dir
	}
	return nil
}

// ModuleKeyOfEnabledKey returns the values key x of an "xEnabled" key.
func ModuleKeyOfEnabledKey(key string) (string, bool) {
	x, ok := strings.CutSuffix(key, EnabledSuffix)
	if !ok || x == "" {
		return "", false
	}
	if _, err := ModuleNameOf(x); err != nil {
		return "", false
	}
	return x, true
}
