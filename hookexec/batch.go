package hookexec

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// Owner says whose hooks discovery finds: the global scope, or a module
// (its name is a batch hook's MODULE_NAME).
type Owner struct {
	Scope bindings.Scope
	// Module is the module's name; empty for the global scope.
	Module string
}

// moduleName is MODULE_NAME of the owner's batch hooks.
func (o Owner) moduleName() string {
	if o.Scope == bindings.ScopeGlobal {
		return "global"
	}
	return o.Module
}

// DiscoverHooks finds the hooks of owner under root (the global hooks
// directory, or a module directory whose hooks/ is searched), as
// DiscoverGlobalHooks and DiscoverModuleHooks do, and replaces each batch
// hook executable (UPSTREAM.md §1.1: a compiled, extensionless executable
// that answers `hook list`) with its nested hooks, read with `hook config`.
// Every other file stays a shell hook, configured with --config as before.
// A probe that hangs past Options.ProbeTimeout, or a broken batch config,
// is an error naming the file (and the nested hook).
func (r *Runner) DiscoverHooks(ctx context.Context, root string, owner Owner) ([]Hook, error) {
	found, notExecutable, err := discover(hooksRoot(root, owner.Scope))
	if err != nil {
		return nil, err
	}
	out := make([]Hook, 0, len(found))
	var readiness string // the executable that has the readiness hook
	for _, h := range found {
		if !batchCandidate(h, owner.Scope) {
			out = append(out, h)
			continue
		}
		nested, ready, err := r.batchHooks(ctx, h, owner)
		switch {
		case err != nil:
			return nil, err
		case nested == nil:
			out = append(out, h) // not a batch executable: a shell hook
			continue
		case ready && readiness != "":
			return nil, fmt.Errorf("%w: multiple readiness hooks found in %s (and %s)", ErrConfig, h.Path, readiness)
		case ready:
			readiness = h.Path
		}
		out = append(out, nested...)
	}
	r.warnNotExecutable(notExecutable, owner.Scope)
	return out, nil
}

// warnNotExecutable warns of extensionless files without an exec bit: a
// batch hook that lost its exec bit in a copy is easily missed otherwise.
func (r *Runner) warnNotExecutable(paths []string, scope bindings.Scope) {
	for _, p := range paths {
		if scope == bindings.ScopeModule && underDir(p, "venv") {
			continue
		}
		r.opts.Logger.Warn("hook file skipped: not executable", slog.String("file", p))
	}
}

// batchCandidate says whether discovery probes h with `hook list`: an
// extensionless file outside venv (module) directories that is no script
// (a `#!` file is a shell hook and is never run with arguments it does not
// expect).
func batchCandidate(h Hook, scope bindings.Scope) bool {
	if filepath.Ext(h.Path) != "" {
		return false
	}
	if scope == bindings.ScopeModule && underDir(h.Name, "venv") {
		return false
	}
	return !isScript(h.Path)
}

// underDir says whether path has a directory named dir.
func underDir(path, dir string) bool {
	parts := strings.Split(filepath.ToSlash(filepath.Dir(path)), "/")
	for _, p := range parts {
		if p == dir {
			return true
		}
	}
	return false
}

func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false // the probe reports what is wrong with it
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return n == 2 && string(head) == "#!"
}
