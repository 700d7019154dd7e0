package image

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The repository's .dockerignore is read, and keeps out what the image does
// not need while keeping what its build copies.
func TestRepositoryDockerignore(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := readIgnore(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"go.mod":                            false,
		"cmd/addon-operator/main.go":        false,
		"deploy/Dockerfile":                 false,
		"deploy/shell/shell_lib.sh":         false,
		"test/cluster/servers/go.sum":       false,
		"cmd/addon-operator/main_test.go":   true,
		"README.md":                         true,
		"docs/x/y.md":                       true,
		".git":                              true,
		".cache/testcluster/etcd.log":       true,
		"deploy/addon-operator/values.yaml": true,
		"hookexec/testdata/hook.sh":         true,
	} {
		if got := rules.ignored(rel); got != want {
			t.Errorf("ignored(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestIgnoreRulesRefuseWhatTheyCannotRead(t *testing.T) {
	for _, line := range []string{"!keep.go", "a/**/b", "**/a/b"} {
		file := filepath.Join(t.TempDir(), ".dockerignore")
		if err := os.WriteFile(file, []byte("ok\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readIgnore(file); err == nil {
			t.Errorf("%q was accepted", line)
		}
	}
}

// The key changes with a file's content and mode, not with an ignored file.
func TestContextKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		k, err := contextKey(dir)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write(".dockerignore", "**/*_test.go\ndocs\n", 0o644)
	write("a/main.go", "package main", 0o644)
	k0 := key()
	write("a/main_test.go", "package main", 0o644)
	write("docs/x.md", "x", 0o644)
	if k := key(); k != k0 {
		t.Errorf("an ignored file changed the key")
	}
	write("a/main.go", "package main ", 0o644)
	k1 := key()
	write("a/main.go", "package main ", 0o755)
	if k2 := key(); k1 == k0 || k2 == k1 {
		t.Errorf("content or mode did not change the key: %s %s %s", k0, k1, k2)
	}
}

func TestParseSources(t *testing.T) {
	deb822 := `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb-src
URIs: http://src.example/debian
Suites: bookworm

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
`
	want := []aptSource{{"http://deb.debian.org/debian", "bookworm"}, {"http://deb.debian.org/debian", "bookworm-updates"},
		{"http://deb.debian.org/debian-security", "bookworm-security"}}
	if got := parseSources(deb822, true); !slices.Equal(got, want) {
		t.Errorf("deb822: %v, want %v", got, want)
	}
	list := "# comment\ndeb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian trixie main\ndeb-src http://x trixie main\n"
	if got := parseSources(list, false); !slices.Equal(got, []aptSource{{"http://mirror.example/debian", "trixie"}}) {
		t.Errorf("one-line: %v", got)
	}
}
