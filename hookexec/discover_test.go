package hookexec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	exec := func(rel string) { writeTestFile(t, filepath.Join(root, rel), 0o755) }
	plain := func(rel string) { writeTestFile(t, filepath.Join(root, rel), 0o644) }
	exec("b.sh")
	exec("a.sh")
	exec("002-dir/hook.py")
	exec("001-dir/sub/deep.sh")
	exec("a/x.sh") // sorts after a.sh by name
	plain("readme.md")
	exec(".hidden.sh")
	exec(".dotdir/h.sh")
	exec("lib/helpers.sh")
	exec("001-dir/lib/inner.sh")
	plain("openapi/values.yaml")
	// Data files are no hooks even with the exec bit (a volume or an
	// archive that makes every file 0755), as in today's original.
	exec("openapi/config-values.yaml")
	exec("notes.md")
	exec("fixture.json")
	exec("hook.txt")
	elsewhere := t.TempDir()
	writeTestFile(t, filepath.Join(elsewhere, "linked-target.sh"), 0o755)
	must(t, os.Symlink(filepath.Join(elsewhere, "linked-target.sh"), filepath.Join(root, "c-link.sh")))
	must(t, os.Symlink(elsewhere, filepath.Join(root, "linkdir")))
	must(t, os.Symlink(root, filepath.Join(root, "loop")))                            // a loop is walked once
	must(t, os.Symlink(filepath.Join(root, "gone"), filepath.Join(root, "dangling"))) // no target, no hook

	hooks, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range hooks {
		names = append(names, h.Name)
		if h.Path != filepath.Join(root, filepath.FromSlash(h.Name)) || h.Root != root {
			t.Errorf("hook %+v: path or root wrong", h)
		}
	}
	want := []string{"001-dir/sub/deep.sh", "002-dir/hook.py", "a.sh", "a/x.sh", "b.sh", "c-link.sh", "linkdir/linked-target.sh"}
	if !slices.Equal(names, want) {
		t.Errorf("hooks = %q\nwant    %q", names, want)
	}
}

func TestDiscoverModuleHooks(t *testing.T) {
	module := t.TempDir()
	writeTestFile(t, filepath.Join(module, "hooks", "h.sh"), 0o755)
	writeTestFile(t, filepath.Join(module, "enabled"), 0o755) // not a hook
	hooks, err := DiscoverModuleHooks(module)
	if err != nil || len(hooks) != 1 || hooks[0].Name != "hooks/h.sh" || hooks[0].Root != filepath.Join(module, "hooks") {
		t.Fatalf("hooks = %+v, err %v", hooks, err)
	}
	none, err := DiscoverModuleHooks(t.TempDir())
	if err != nil || len(none) != 0 {
		t.Fatalf("module without hooks/: %+v, %v", none, err)
	}
	if _, err := Discover(filepath.Join(module, "enabled")); err == nil {
		t.Errorf("a file as root is no error")
	}
}

func writeTestFile(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte("#!/bin/sh\n"), mode))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestEnabledScript(t *testing.T) {
	module := t.TempDir()
	if _, ok, err := EnabledScript(module); ok || err != nil {
		t.Fatalf("module without enabled: ok=%v err=%v", ok, err)
	}
	writeTestFile(t, filepath.Join(module, "enabled"), 0o644)
	if _, _, err := EnabledScript(module); err == nil {
		t.Fatal("a non-executable enabled file is no error")
	}
	must(t, os.Chmod(filepath.Join(module, "enabled"), 0o755))
	script, ok, err := EnabledScript(module)
	if !ok || err != nil || script.Path != filepath.Join(module, "enabled") || script.Root != module || script.Dir() != module {
		t.Fatalf("script = %+v ok=%v err=%v", script, ok, err)
	}
}
