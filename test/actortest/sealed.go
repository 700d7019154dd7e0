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
	members, err := written(set)
	if err != nil {
		return nil, err
	}
	funcs, err := funcsIn(dir)
	if err != nil {
		return nil, err
	}
	fd, err := funcs.lookup(fn)
	if err != nil {
		return nil, fmt.Errorf("%w in %s", err, dir)
	}
	return without(members, readApplier(fd, setOf(members), funcs).cases), nil
}

// written returns the members of set as the applier's cases write them,
// sorted; a set no type belongs to is an error (it would cover trivially).
func written(set Sealed) ([]string, error) {
	members, err := implementers(set.Dir, set.Marker)
	if err != nil {
		return nil, err
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("no type in %s has the method %s", set.Dir, set.Marker)
	}
	if set.Qualifier != "" {
		for i, m := range members {
			members[i] = set.Qualifier + "." + m
		}
	}
	return members, nil
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

// Covered fails t for each applier of the package in dir (a function's
// name, or a method's as "Type.Method", by its bare name too when no other
// type has a method of that name; mapped to the set of effects it must
// take) that lacks a case for one of the set's types, whose switch over
// the set has no default that panics, or that routes a type to a function
// or method of the package (routes.go) that lacks the same, at any depth.
func Covered(t testing.TB, dir string, appliers map[string]Sealed) {
	t.Helper()
	funcs, err := funcsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	for fn, set := range appliers {
		members, err := written(set)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gaps(funcs, setOf(members), fn, members, map[string]bool{}) {
			t.Error(g)
		}
	}
}
