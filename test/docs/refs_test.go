// Package docs checks that README.md and docs/*.md name only code that
// exists, and link only to files and headings that exist.
//
// What counts as a code reference (docs/INTERNALS.md, "Code references in
// these docs"), outside fenced code blocks, in single backticks:
//
//   - a path whose first segment is an entry of the repository's root
//     (`actors/module/shell.go`, `test/cluster/servers`, `deploy/shell/*_test.go`):
//     the file, directory or glob must exist;
//   - a Go file without a directory (`core.go`): it is in the directory of
//     the last Go file named with its directory earlier in the same
//     paragraph (a blank line, a heading or a list item starts a new one),
//     and must exist there; with no such
//     file before it, its base name must exist somewhere, once;
//   - the names right after a Go file, in backticks, joined to it by "(",
//     "," or ":" and to each other by ",", "→", "and" or "or"
//     (`core.go` (`Step`) → `config.go` (`configChanged` and `onConfigChanged`)):
//     each must be declared at top level in that file: a func, a type, a
//     var or const, a method (`name` or `Type.name`) or a struct field
//     (`Type.Field`);
//   - `pkg.Name` and `pkg.Type.Name`, where pkg is the name of one of this
//     repository's Go packages (`messages.RunTask`, `values.Scope.WithConfig`,
//     `cluster.StartWithNode(ctx, dir, opts)`): Name must be declared in a
//     package of that name;
//   - a test, benchmark or fuzz target (`TestChartOnNode`, `BenchmarkWebhookAdmission`):
//     a func of that name must exist in some _test.go file.
//
// A markdown link to a relative path must name an existing file, and its
// #anchor a heading of that file (GitHub's slugs); links that leave the
// repository (../shared) are not checked.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// index is what the repository declares.
type index struct {
	root      string
	top       map[string]bool            // entries of the root dir
	files     map[string]map[string]bool // Go file (slash path) -> its top-level names
	bases     map[string][]string        // Go file base name -> its paths
	pkgs      map[string]map[string]bool // package name -> names declared in any package of that name
	testFuncs map[string]bool
}

func repoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "README.md")); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no repository root above the test")
		}
		dir = parent
	}
}

func buildIndex(t testing.TB, root string) *index {
	ix := &index{root: root, top: map[string]bool{}, files: map[string]map[string]bool{},
		bases: map[string][]string{}, pkgs: map[string]map[string]bool{}, testFuncs: map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		ix.top[e.Name()] = true
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse %s: %w", path, err)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		names := declared(f)
		ix.files[rel] = names
		ix.bases[name] = append(ix.bases[name], rel)
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		if ix.pkgs[pkg] == nil {
			ix.pkgs[pkg] = map[string]bool{}
		}
		for n := range names {
			ix.pkgs[pkg][n] = true
		}
		if strings.HasSuffix(name, "_test.go") {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
					ix.testFuncs[fd.Name.Name] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// declared lists a file's top-level names: funcs, types, vars, consts, and
// methods and struct fields both alone and as Type.name.
func declared(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names[d.Name.Name] = true
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if r := recvName(d.Recv.List[0].Type); r != "" {
					names[r+"."+d.Name.Name] = true
				}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fld := range st.Fields.List {
							for _, n := range fld.Names {
								names[s.Name.Name+"."+n.Name] = true
							}
							if len(fld.Names) == 0 { // embedded
								if r := recvName(fld.Type); r != "" {
									names[s.Name.Name+"."+r] = true
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

var (
	spanRE   = regexp.MustCompile("`([^`\n]+)`")
	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?(\(\))?$`)
	pkgRE    = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:\(.*\))?$`)
	testRE   = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)[A-Z0-9_][A-Za-z0-9_]*$`)
	pathRE   = regexp.MustCompile(`^[A-Za-z0-9_.*\-]+(/[A-Za-z0-9_.*\-]*)+$`)
	firstSep = regexp.MustCompile(`^\s*[(,:]\s*$`)
	nextSep  = regexp.MustCompile(`^\s*(,|→|and|or)\s*$`)
	linkRE   = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	listItem = regexp.MustCompile(`^\s*([0-9]+\.|-|\*) `)
	fileExt  = regexp.MustCompile(`\.(go|ya?ml|json|md|sh|txt|tpl|socket)$`)
)

// paragraph is a run of lines outside fences, with each line's number.
type paragraph struct {
	text  string
	lines []int // the line number of each byte offset's line start, by offset
	start []int
}

func (p paragraph) line(off int) int {
	i := sort.SearchInts(p.start, off+1) - 1
	return p.lines[i]
}

func paragraphs(text string) []paragraph {
	var out []paragraph
	var cur paragraph
	flush := func() {
		if cur.text != "" {
			out = append(out, cur)
		}
		cur = paragraph{}
	}
	fence := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			flush()
			continue
		}
		if fence {
			continue
		}
		if listItem.MatchString(l) {
			flush()
		}
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			flush()
			if strings.HasPrefix(l, "#") {
				cur = paragraph{text: l, lines: []int{i + 1}, start: []int{0}}
				flush()
			}
			continue
		}
		cur.start = append(cur.start, len(cur.text))
		cur.lines = append(cur.lines, i+1)
		cur.text += l + "\n"
	}
	flush()
	return out
}

// checkDoc returns one line per reference in text that names nothing.
func (ix *index) checkDoc(doc, text string) []string {
	var errs []string
	bad := func(p paragraph, off int, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d: %s", doc, p.line(off), fmt.Sprintf(format, args...)))
	}
	for _, p := range paragraphs(text) {
		spans := spanRE.FindAllStringSubmatchIndex(p.text, -1)
		ctxDir := ""
		for i := 0; i < len(spans); i++ {
			s := spans[i]
			c := p.text[s[2]:s[3]]
			switch {
			case strings.HasSuffix(c, ".go") && !strings.ContainsAny(c, " *"):
				file := ""
				if strings.Contains(c, "/") {
					if _, ok := ix.files[c]; !ok {
						if ix.top[strings.Split(c, "/")[0]] {
							bad(p, s[0], "`%s`: no such Go file", c)
						}
						continue
					}
					file, ctxDir = c, c[:strings.LastIndex(c, "/")]
				} else if ctxDir != "" {
					file = ctxDir + "/" + c
					if _, ok := ix.files[file]; !ok {
						bad(p, s[0], "`%s`: no such file in %s (the directory of the Go file named before it)", c, ctxDir)
						continue
					}
				} else {
					switch paths := ix.bases[c]; len(paths) {
					case 0:
						bad(p, s[0], "`%s`: no Go file of that name", c)
						continue
					case 1:
						file = paths[0]
					default:
						// Several: existence is all that can be said; names
						// after it need its directory.
						if i+1 < len(spans) && firstSep.MatchString(p.text[s[1]:spans[i+1][0]]) && identRE.MatchString(p.text[spans[i+1][2]:spans[i+1][3]]) {
							bad(p, s[0], "`%s` is in %s: name its directory before naming what it declares", c, strings.Join(paths, ", "))
						}
						continue
					}
				}
				// The names right after it.
				for j, sep := i+1, firstSep; j < len(spans); j, sep = j+1, nextSep {
					gap := p.text[spans[j-1][1]:spans[j][0]]
					name := p.text[spans[j][2]:spans[j][3]]
					if !sep.MatchString(gap) || !identRE.MatchString(name) || fileExt.MatchString(name) {
						break
					}
					name = strings.TrimSuffix(name, "()")
					if !ix.files[file][name] {
						bad(p, spans[j][0], "`%s` (`%s`): %s declares no %s", c, name, file, name)
					}
					i = j
				}
			case pathRE.MatchString(c) && !strings.Contains(c, "...") && ix.top[strings.Split(c, "/")[0]]:
				if strings.Contains(c, "*") {
					if m, _ := filepath.Glob(filepath.Join(ix.root, c)); len(m) == 0 {
						bad(p, s[0], "`%s`: matches no file", c)
					}
				} else if _, err := os.Stat(filepath.Join(ix.root, c)); err != nil {
					bad(p, s[0], "`%s`: no such file or directory", c)
				}
			case pkgRE.MatchString(c) && !fileExt.MatchString(c):
				m := pkgRE.FindStringSubmatch(c)
				names, ok := ix.pkgs[m[1]]
				if !ok {
					continue // not one of ours (rest.InClusterConfig)
				}
				want := m[2]
				if m[3] != "" {
					want = m[2] + "." + m[3]
				}
				if !names[want] {
					bad(p, s[0], "`%s`: no package %s declares %s", c, m[1], want)
				}
			case testRE.MatchString(c):
				if !ix.testFuncs[c] {
					bad(p, s[0], "`%s`: no such test function", c)
				}
			}
		}
		errs = append(errs, ix.checkLinks(doc, p)...)
	}
	return errs
}

func (ix *index) checkLinks(doc string, p paragraph) []string {
	var errs []string
	// Links inside code spans are text, not links.
	text := spanRE.ReplaceAllStringFunc(p.text, func(s string) string { return strings.Repeat(" ", len(s)) })
	for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
		target := text[m[2]:m[3]]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		path, anchor, _ := strings.Cut(target, "#")
		file := filepath.Join(ix.root, doc)
		if path != "" {
			file = filepath.Join(filepath.Dir(file), path)
		}
		if rel, err := filepath.Rel(ix.root, file); err != nil || strings.HasPrefix(rel, "..") {
			continue // outside the repository
		}
		if _, err := os.Stat(file); err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: link %s: no such file", doc, p.line(m[0]), target))
			continue
		}
		if anchor == "" || !strings.HasSuffix(file, ".md") {
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if !headingSlugs(string(b))[anchor] {
			errs = append(errs, fmt.Sprintf("%s:%d: link %s: no heading #%s in %s", doc, p.line(m[0]), target, anchor, filepath.Base(file)))
		}
	}
	return errs
}

// headingSlugs are the anchors GitHub makes of a page's headings.
func headingSlugs(text string) map[string]bool {
	slugs := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '→' && r != '—' && r != '…':
				b.WriteRune(r)
			}
		}
		s := b.String()
		if n := seen[s]; n > 0 {
			slugs[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			slugs[s] = true
		}
		seen[s]++
	}
	return slugs
}

func docFiles(t testing.TB, root string) []string {
	docs := []string{"README.md"}
	m, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m {
		docs = append(docs, "docs/"+filepath.Base(f))
	}
	return docs
}

// TestDocsNameOnlyWhatExists checks every code reference and relative link
// of README.md and docs/*.md.
func TestDocsNameOnlyWhatExists(t *testing.T) {
	root := repoRoot(t)
	ix := buildIndex(t, root)
	for _, doc := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ix.checkDoc(doc, string(b)) {
			t.Error(e)
		}
	}
}

// TestReadmeIsShort: the README is the front page; the rest is in docs/.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300: move the detail to docs/", n)
	}
	for _, cmd := range []string{"```sh\nmake run\n```", "```sh\nmake test\n```"} {
		if !strings.Contains(string(b), cmd) {
			t.Errorf("README.md does not show %q", cmd)
		}
	}
}

// TestCheckerFindsWrongNames: the names an earlier README got wrong
// (issue 42) fail the check, each with its doc and line.
func TestCheckerFindsWrongNames(t *testing.T) {
	ix := buildIndex(t, repoRoot(t))
	doc := "6. `actors/module/actor.go` (`whenConfigured`) steps the core with `TaskAssigned`;\n" +
		"   it notes the drift (`shell_check.go`, `handleHelmDrift`) and steps the core.\n" +
		"\n" +
		"candidates' actors answer theirs, `actors/module/shell_life.go`, `handleCheckEnabled`, stepped as\n" +
		"`messages.NoSuchMessage`, `actors/module/nosuch.go`, `TestNoSuchTest`, [x](nosuch.md), [y](RBAC.md#nosuch).\n"
	errs := ix.checkDoc("docs/X.md", doc)
	want := []string{
		"docs/X.md:1: `actors/module/actor.go` (`whenConfigured`): actors/module/actor.go declares no whenConfigured",
		"docs/X.md:2: `shell_check.go` (`handleHelmDrift`): actors/module/shell_check.go declares no handleHelmDrift",
		"docs/X.md:4: `actors/module/shell_life.go` (`handleCheckEnabled`): actors/module/shell_life.go declares no handleCheckEnabled",
		"docs/X.md:5: `messages.NoSuchMessage`: no package messages declares NoSuchMessage",
		"docs/X.md:5: `actors/module/nosuch.go`: no such Go file",
		"docs/X.md:5: `TestNoSuchTest`: no such test function",
		"docs/X.md:5: link nosuch.md: no such file",
		"docs/X.md:5: link RBAC.md#nosuch: no heading #nosuch in RBAC.md",
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	// And the right names pass.
	ok := "`actors/module/core_life.go` (`whenConfigured`), `core.go` (`Step`), `messages.RunTask`, `values.Scope.WithConfig`.\n"
	if errs := ix.checkDoc("docs/X.md", ok); len(errs) != 0 {
		t.Errorf("right names fail: %v", errs)
	}
}
