package actortest

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// source is the functions and methods of one package, by the name an
// applier is given as, and what each call of the package calls.
type source struct {
	// decls holds every plain function by its name and every method as
	// "Type.Method"; a method also by its bare name when no function and
	// no other method has it.
	decls map[string]*ast.FuncDecl
	// ambiguous are the bare names of methods of two or more types.
	ambiguous map[string][]string
	// calls are the functions of the package that calls resolve to, by
	// the name decls has them under ("DirsWatch.Step" for w.Step(ev)).
	calls map[*ast.CallExpr]string
}

// funcsIn reads the functions and methods of the package in dir. Calls
// are resolved by type-checking the package without its imports: a method
// call on a value of a type the package declares names that type.
func funcsIn(dir string) (*source, error) {
	fset := token.NewFileSet()
	files, err := parseDir(fset, dir)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	_, _ = conf.Check(dir, fset, files, info) // the imports' errors change no method of the package
	src := &source{decls: map[string]*ast.FuncDecl{}, ambiguous: map[string][]string{}, calls: map[*ast.CallExpr]string{}}
	methods := map[string][]*ast.FuncDecl{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if recv := receiverName(fd); recv != "" {
				src.decls[recv+"."+fd.Name.Name] = fd
				methods[fd.Name.Name] = append(methods[fd.Name.Name], fd)
			} else {
				src.decls[fd.Name.Name] = fd
			}
		}
		src.resolveCalls(f, info)
	}
	src.addBareMethods(methods)
	return src, nil
}

// addBareMethods names a method by its bare name too, unless a function or
// a method of another type has it.
func (s *source) addBareMethods(methods map[string][]*ast.FuncDecl) {
	for name, fds := range methods {
		if s.decls[name] != nil {
			continue
		}
		if len(fds) > 1 {
			for _, fd := range fds {
				s.ambiguous[name] = append(s.ambiguous[name], receiverName(fd)+"."+name)
			}
			continue
		}
		s.decls[name] = fds[0]
	}
}

// resolveCalls records, for each call in f, the function of the package
// it calls.
func (s *source) resolveCalls(f *ast.File, info *types.Info) {
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			s.calls[call] = fn.Name
		case *ast.SelectorExpr:
			s.calls[call] = selected(fn, info)
		}
		return true
	})
}

// selected is the name of what sel calls: "Type.Method" for a method of a
// named type, else the bare name (a function of an import, or a call the
// type check could not resolve).
func selected(sel *ast.SelectorExpr, info *types.Info) string {
	selection, ok := info.Selections[sel]
	if !ok {
		return sel.Sel.Name
	}
	fn, ok := selection.Obj().(*types.Func)
	if !ok {
		return sel.Sel.Name
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return sel.Sel.Name
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := t.(*types.Named); ok {
		return named.Obj().Name() + "." + fn.Name()
	}
	return sel.Sel.Name
}

// callee is the function of the package call calls, as decls names it.
func (s *source) callee(call *ast.CallExpr) string { return s.calls[call] }

// lookup returns the function or method named fn ("apply", "Type.Method",
// or a method's bare name when only one type has it).
func (s *source) lookup(fn string) (*ast.FuncDecl, error) {
	if fd, ok := s.decls[fn]; ok {
		return fd, nil
	}
	if of := s.ambiguous[fn]; len(of) > 0 {
		return nil, fmt.Errorf("%s names several methods (%s): name one as Type.Method", fn, strings.Join(of, ", "))
	}
	return nil, fmt.Errorf("no function %s", fn)
}

// receiverName is the name of fd's receiver's type, "" for a function.
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch t := t.(type) {
	case *ast.IndexExpr: // a generic type's method
		t2, _ := t.X.(*ast.Ident)
		return identName(t2)
	case *ast.IndexListExpr:
		t2, _ := t.X.(*ast.Ident)
		return identName(t2)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

func identName(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}
