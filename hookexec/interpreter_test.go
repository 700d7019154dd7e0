package hookexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Which first lines are started through their interpreter directly: only
// `#!/usr/bin/env NAME` (or /bin/env) with one plain name found on the
// hook's PATH as a program the kernel loads itself; everything else goes
// through the kernel as written.
func TestCommandSkipsEnvOnlyWhenEnvWouldFindTheSame(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	write := func(path, content string, mode os.FileMode) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	interp := write(filepath.Join(bin, "interp"), "#!/bin/sh\n", 0o755)
	write(filepath.Join(bin, "noexec"), "#!/bin/sh\n", 0o644)
	write(filepath.Join(bin, "plain"), "echo no shebang: execvp would hand me to /bin/sh\n", 0o755)
	path := "PATH=/nonexistent:" + bin
	cases := []struct {
		name, first string
		env         []string
		want        string // the file executed; "" is the hook itself
	}{
		{"env NAME", "#!/usr/bin/env interp", []string{path}, interp},
		{"/bin/env NAME", "#!/bin/env interp", []string{path}, interp},
		{"spaces around", "#!  /usr/bin/env   interp  ", []string{path}, interp},
		{"last PATH wins", "#!/usr/bin/env interp", []string{"PATH=/nonexistent", path}, interp},
		{"empty PATH entry is the hook's dir", "#!/usr/bin/env interp", []string{"PATH=:"}, ""},
		{"no PATH", "#!/usr/bin/env interp", nil, ""},
		{"not found", "#!/usr/bin/env nothing", []string{path}, ""},
		{"not executable", "#!/usr/bin/env noexec", []string{path}, ""},
		{"no shebang of its own", "#!/usr/bin/env plain", []string{path}, ""},
		{"env option", "#!/usr/bin/env -S interp -e", []string{path}, ""},
		{"two words", "#!/usr/bin/env interp -e", []string{path}, ""},
		{"a path", "#!/usr/bin/env " + interp, []string{path}, ""},
		{"an assignment", "#!/usr/bin/env A=1", []string{path}, ""},
		{"CRLF", "#!/usr/bin/env interp\r", []string{path}, ""},
		{"another interpreter", "#!/bin/bash", []string{path}, ""},
		{"not a script", "\x7fELF", []string{path}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hook := write(filepath.Join(dir, "hooks", strings.ReplaceAll(c.name, " ", "-")), c.first+"\nexit 0\n", 0o755)
			file, argv := command(hook, []string{"a", "b"}, c.env, filepath.Dir(hook))
			want, wantArgv := hook, []string{hook, "a", "b"}
			if c.want != "" {
				want, wantArgv = c.want, []string{filepath.Base(c.want), hook, "a", "b"}
			}
			if file != want || !slices.Equal(argv, wantArgv) {
				t.Errorf("command = %s %q, want %s %q", file, argv, want, wantArgv)
			}
		})
	}
	// An empty PATH entry is the hook's own directory, as for execvp.
	local := write(filepath.Join(dir, "local", "interp"), "#!/bin/sh\n", 0o755)
	hook := write(filepath.Join(dir, "local", "hook"), "#!/usr/bin/env interp\n", 0o755)
	if file, _ := command(hook, nil, []string{"PATH=:"}, filepath.Dir(hook)); file != local {
		t.Errorf("empty PATH entry: command = %s, want %s", file, local)
	}
}

// A `#!/usr/bin/env bash` hook started without env sees what it saw
// through env: its command line (bash, the script, the arguments), its
// directory, its environment; one whose interpreter env cannot find fails
// as env makes it fail.
func TestEnvShebangHookRunsAsThroughEnv(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook")
	script := "#!/usr/bin/env bash\n" +
		`{ tr '\0' ' ' < /proc/$$/cmdline; echo; pwd; echo "$0|$*|$MARK"; } > "$OUT"` + "\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT="+out, "MARK=m")})
	h := Hook{Name: "hook", Path: hook, Root: dir, Args: []string{"x", "y z"}}
	if _, err := r.Run(context.Background(), Request{Hook: h, Scope: PatchScope{RootKey: "m"}}); err != nil {
		t.Fatal(err)
	}
	want := "bash " + hook + " x y z \n" + dir + "\n" + hook + "|x y z|m"
	if got := readFile(t, out); got != want {
		t.Errorf("the hook saw\n%s\nwant\n%s", got, want)
	}
	missing := filepath.Join(dir, "missing")
	if err := os.WriteFile(missing, []byte("#!/usr/bin/env no-such-interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := r.Run(context.Background(), Request{Hook: Hook{Name: "missing", Path: missing, Root: dir}, Scope: PatchScope{RootKey: "m"}})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 127 || !strings.Contains(strings.Join(exit.StderrTail, "\n"), "no-such-interpreter") {
		t.Fatalf("hook with an interpreter env cannot find: %v, want env's exit 127 naming it", err)
	}
}
