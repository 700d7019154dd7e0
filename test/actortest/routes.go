package actortest

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// An applier may hand part of the set to another function of its package:
// a case that lists several types (or any case, passing the switched value
// itself) calls it with the value as an interface, and when that function
// has a switch over the set, it must take each of those types. Covered follows these routes to any
// depth, and holds every switch over the set, at every depth, to a default
// that panics: a type routed to a function without its case is a bug that
// must not be dropped without a word.

// applier is what one function's type switches over a set say.
type applier struct {
	cases    map[string]bool     // the types its cases name, as written
	switches int                 // its switches over the set
	routes   map[string][]string // per function it hands the value to: the types it hands
	quiet    int                 // its switches over the set without a default that panics
}

// gaps returns what the applier fn lacks for the types required, and what
// the functions it routes to lack for theirs, as messages.
func gaps(funcs *source, members map[string]bool, fn string, required []string, seen map[string]bool) []string {
	if seen[fn] {
		return nil
	}
	seen[fn] = true
	fd, err := funcs.lookup(fn)
	if err != nil {
		return []string{err.Error()}
	}
	a := readApplier(fd, members, funcs)
	var out []string
	if missing := without(required, a.cases); len(missing) > 0 {
		out = append(out, fmt.Sprintf("%s has no case for %q", fn, missing))
	}
	if a.quiet > 0 {
		out = append(out, fmt.Sprintf("%s has a switch over the set without a default that panics", fn))
	}
	callees := make([]string, 0, len(a.routes))
	for callee := range a.routes {
		callees = append(callees, callee)
	}
	slices.Sort(callees)
	for _, callee := range callees {
		if fd := funcs.decls[callee]; readApplier(fd, members, funcs).switches == 0 {
			continue // a helper that takes any value, not an applier
		}
		for _, g := range gaps(funcs, members, callee, a.routes[callee], seen) {
			out = append(out, g+" (routed from "+fn+")")
		}
	}
	return out
}

// readApplier reads the type switches of fd that name a member of the set.
func readApplier(fd *ast.FuncDecl, members map[string]bool, funcs *source) applier {
	a := applier{cases: map[string]bool{}, routes: map[string][]string{}}
	if fd.Body == nil {
		return a
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSwitchStmt); ok && overSet(ts, members) {
			a.read(ts, funcs)
		}
		return true
	})
	return a
}

// read adds one switch over the set.
func (a *applier) read(ts *ast.TypeSwitchStmt, funcs *source) {
	bound, switched := switchNames(ts)
	a.switches++
	loud := false
	for _, s := range ts.Body.List {
		cc := s.(*ast.CaseClause)
		if cc.List == nil {
			loud = panics(cc.Body)
			continue
		}
		names := make([]string, len(cc.List))
		for i, e := range cc.List {
			names[i] = types.ExprString(e)
			a.cases[names[i]] = true
		}
		handing := []string{switched}
		if len(names) > 1 { // the bound value keeps the interface type
			handing = append(handing, bound)
		}
		for _, callee := range callsWith(cc.Body, handing, funcs) {
			a.routes[callee] = append(a.routes[callee], names...)
		}
	}
	if !loud {
		a.quiet++
	}
}

// overSet says whether a case of ts names a member of the set.
func overSet(ts *ast.TypeSwitchStmt, members map[string]bool) bool {
	for _, s := range ts.Body.List {
		for _, e := range s.(*ast.CaseClause).List {
			if members[types.ExprString(e)] {
				return true
			}
		}
	}
	return false
}

// switchNames returns the name ts binds ("e" in e := x.(type)) and the
// switched expression when it is a plain name ("x") that the bound name
// does not shadow; "" for either absent.
func switchNames(ts *ast.TypeSwitchStmt) (bound, switched string) {
	var assert ast.Expr
	switch s := ts.Assign.(type) {
	case *ast.AssignStmt:
		bound, assert = s.Lhs[0].(*ast.Ident).Name, s.Rhs[0]
	case *ast.ExprStmt:
		assert = s.X
	}
	if ta, ok := assert.(*ast.TypeAssertExpr); ok {
		if id, ok := ta.X.(*ast.Ident); ok && id.Name != bound { // else the cases' bound value shadows it
			switched = id.Name
		}
	}
	return bound, switched
}

// callsWith returns the functions of the package that body calls with one
// of the names as an argument.
func callsWith(body []ast.Stmt, names []string, funcs *source) []string {
	var out []string
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if name := funcs.callee(call); funcs.decls[name] != nil && passes(call, names) {
				out = append(out, name)
			}
			return true
		})
	}
	return out
}

func passes(call *ast.CallExpr, names []string) bool {
	for _, arg := range call.Args {
		if id, ok := arg.(*ast.Ident); ok && id.Name != "" && slices.Contains(names, id.Name) {
			return true
		}
	}
	return false
}

// panics says whether body calls panic.
func panics(body []ast.Stmt) bool {
	found := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func setOf(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// without returns the names that are not in have, in their order.
func without(names []string, have map[string]bool) []string {
	var out []string
	for _, n := range names {
		if !have[n] {
			out = append(out, n)
		}
	}
	return out
}
