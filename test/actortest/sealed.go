package actortest

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"testing"
)

// A sealed interface is a set of effects (or events) closed by an
// unexported marker method, which only the package that declares it can
// implement. Covered checks, from source, that the type switch of the
// function that applies them has a case for every member, so that an effect
// added without its applier case fails the package's tests instead of being
// ignored.

// Sealed names a sealed interface by its marker: the package in Dir declares
// the types whose method sets hold the method Marker. Qualifier is how the
// applier's package names that package in its cases ("hookrun"), empty when
// they are the same package.
type Sealed struct {
	Dir, Marker, Qualifier string
}

// missingCases returns the members of set that no case of a type switch in the
// function or method fn of the package in dir names, as they would be
// written there ("hookrun.Ran"), sorted.
func missingCases(set Sealed, dir, fn string) ([]string, error) {
	members, err := implementers(set.Dir, set.Marker)
	if err != nil {
		return nil, err
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("no type in %s has the method %s", set.Dir, set.Marker)
	}
	cases, err := switchCasesIn(dir, fn)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range members {
		if set.Qualifier != "" {
			m = set.Qualifier + "." + m
		}
		if !cases[m] {
			out = append(out, m)
		}
	}
	return out, nil
}

// implementers returns the names of the concrete types declared in the
// package in dir that have the method marker, sorted; a type that has it
// only through its pointer is written "*T". The package is type-checked
// without its imports: the marker being unexported, only the package's own
// declarations can carry it, so what the imports declare cannot change the
// answer (their errors are ignored).
func implementers(dir, marker string) ([]string, error) {
	fset := token.NewFileSet()
	files, err := parseDir(fset, dir)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check(dir, fset, files, nil)
	var out []string
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if has(tn.Type(), pkg, marker) {
			out = append(out, name)
		} else if has(types.NewPointer(tn.Type()), pkg, marker) {
			out = append(out, "*"+name)
		}
	}
	return out, nil
}

func has(t types.Type, pkg *types.Package, method string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, method)
	_, isFunc := obj.(*types.Func)
	return isFunc
}

// switchCasesIn returns the types named by the cases of the type switches in the
// function or method fn of the package in dir, as written ("RunHelm",
// "hookrun.Ran").
func switchCasesIn(dir, fn string) (map[string]bool, error) {
	fset := token.NewFileSet()
	files, err := parseDir(fset, dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Name.Name == fn && fd.Body != nil {
				return switchCases(fd.Body), nil
			}
		}
	}
	return nil, fmt.Errorf("no function %s in %s", fn, dir)
}

func switchCases(body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSwitchStmt); ok {
			for _, s := range ts.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					out[types.ExprString(e)] = true
				}
			}
		}
		return true
	})
	return out
}

// parseDir parses the Go files of the package in dir that the build
// takes, leaving out its tests.
func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", dir, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// emptyImporter gives every import as an empty package.
type emptyImporter struct{}

func (emptyImporter) Import(p string) (*types.Package, error) {
	return types.NewPackage(p, path.Base(p)), nil
}

// Covered fails t for each applier of the package in dir (a function name,
// mapped to the set of effects it must take) that lacks a case for one of
// the set's types.
func Covered(t testing.TB, dir string, appliers map[string]Sealed) {
	t.Helper()
	for fn, set := range appliers {
		missing, err := missingCases(set, dir, fn)
		if err != nil {
			t.Fatal(err)
		}
		if len(missing) > 0 {
			t.Errorf("%s has no case for the effects %q", fn, missing)
		}
	}
}
