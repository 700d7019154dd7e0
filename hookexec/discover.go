package hookexec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// Hook is an executable found by discovery.
type Hook struct {
	// Name is the hook's name in logs and metrics, as the original names
	// it: a global hook's path relative to Root ("001-startup/hook.sh"), a
	// module hook's path from the module's hooks/ on ("hooks/compute.sh").
	Name string
	// Path is the file to execute.
	Path string
	// Root is the directory discovery walked; the hook's WORKING_DIR.
	Root string
	// Args are the arguments of a run: `hook run <key>` or `hook ready`
	// for a nested hook of a batch executable, none for a shell hook.
	Args []string
	// Env are the variables a run adds to the usual ones (a batch hook's
	// MODULE_NAME, APPLICATION_NAME, APPLICATION_NAMESPACE).
	Env []string
	// Config is the binding configuration when discovery already read it
	// (a batch hook's, from `hook config`); nil for a shell hook, which
	// Runner.Config asks with --config.
	Config *bindings.Config
}

// Command is the hook's file and its run arguments, as errors name it
// (`/m/hooks/bin hook run 1` for a nested batch hook).
func (h Hook) Command() string {
	return strings.Join(append([]string{h.Path}, h.Args...), " ")
}

// Dir is the directory the hook runs in: the one it lies in.
func (h Hook) Dir() string { return filepath.Dir(h.Path) }

// DiscoverGlobalHooks finds the global hooks under dir ($GLOBAL_HOOKS_DIR),
// only in its hooks/ subdirectory when it has one, as the original
// searches (UPSTREAM.md §1.1).
func DiscoverGlobalHooks(dir string) ([]Hook, error) {
	hooks, _, err := discover(hooksRoot(dir, bindings.ScopeGlobal))
	return hooks, err
}

// DiscoverModuleHooks finds the hooks under a module's hooks/ directory; a
// module without one has no hooks.
func DiscoverModuleHooks(moduleDir string) ([]Hook, error) {
	hooks, _, err := discover(hooksRoot(moduleDir, bindings.ScopeModule))
	return hooks, err
}

// hooksRoot is the directory discovery walks for a scope, and the start
// of its hooks' names: a module's hooks/ (names "hooks/…"); the global
// hooks dir's hooks/ when it has one, else the dir itself (names relative
// to it).
func hooksRoot(root string, scope bindings.Scope) (dir, prefix string) {
	if scope == bindings.ScopeModule {
		return filepath.Join(root, moduleHooksDir), moduleHooksDir
	}
	sub := filepath.Join(root, moduleHooksDir)
	if info, err := os.Stat(sub); err == nil && info.IsDir() {
		return sub, ""
	}
	return root, ""
}

// moduleHooksDir is a module's hooks directory, the start of its hooks'
// names.
const moduleHooksDir = "hooks"

// Discover walks root recursively and returns every executable regular file
// (symlinks followed) as a hook, in alphabetical order of their names.
// Dot-files, dot-directories, directories named lib and data files
// (.yaml, .json, .md, .txt: a schema in openapi/ that a volume made
// executable, as the original skips them) are skipped. A
// missing root is no hooks, not an error. Paths are made absolute, since a
// hook runs in its own directory.
func Discover(root string) ([]Hook, error) {
	hooks, _, err := discover(root, "")
	return hooks, err
}

// discover is Discover that also returns the extensionless regular files
// without an exec bit (batch hook candidates that cannot run; the caller
// warns about them). The hooks' names start with prefix.
func discover(root, prefix string) (hooks []Hook, notExecutable []string, err error) {
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("discover hooks in %s: %w", root, err)
	}
	info, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("discover hooks in %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("discover hooks in %s: not a directory", root)
	}
	w := walker{root: root, visited: map[string]bool{}}
	if err := w.walk(root, prefix); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(w.hooks, func(a, b Hook) int { return strings.Compare(a.Name, b.Name) })
	return w.hooks, w.notExecutable, nil
}

type walker struct {
	root    string
	visited map[string]bool // real paths of directories, against symlink loops
	hooks   []Hook
	// notExecutable are extensionless regular files without an exec bit.
	notExecutable []string
}

// walk visits dir; rel is its path relative to the root.
func (w *walker) walk(dir, rel string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("discover hooks: resolve %s: %w", dir, err)
	}
	if w.visited[real] {
		return nil
	}
	w.visited[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("discover hooks: read %s: %w", dir, err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if err := w.visit(filepath.Join(dir, e.Name()), joinRel(rel, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) visit(path, rel string) error {
	info, err := os.Stat(path) // follows symlinks
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a dangling symlink is no hook
	}
	if err != nil {
		return fmt.Errorf("discover hooks: stat %s: %w", path, err)
	}
	switch {
	case info.IsDir():
		if filepath.Base(path) == "lib" {
			return nil
		}
		return w.walk(path, rel)
	case info.Mode().IsRegular() && dataFile(path):
		return nil
	case info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0:
		w.hooks = append(w.hooks, Hook{Name: rel, Path: path, Root: w.root})
	case info.Mode().IsRegular() && filepath.Ext(path) == "":
		w.notExecutable = append(w.notExecutable, path)
	}
	return nil
}

// dataFile tells a file that is never a hook by its extension.
func dataFile(path string) bool {
	switch filepath.Ext(path) {
	case ".yaml", ".json", ".md", ".txt":
		return true
	}
	return false
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}
