package shell_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// Sourcing the library turns on strict mode in the hook's shell: errexit,
// errtrace, nounset, pipefail, inherit_errexit and failglob.
func TestStrictMode(t *testing.T) {
	hookRun(t, "", `[[ $- == *e* && $- == *E* && $- == *u* ]] && echo "set -Eeu"
shopt -qo pipefail && echo pipefail
shopt -q inherit_errexit && echo inherit_errexit
shopt -q failglob && echo failglob`).expect(t, 0, "set -Eeu\npipefail\ninherit_errexit\nfailglob\n")

	for _, tc := range []struct{ name, body, stderr string }{
		{"failglob", `for f in ./*.yaml; do echo "$f"; done`, "no match: ./*.yaml"},
		{"nounset", `echo "$NOT_SET_ANYWHERE"`, "NOT_SET_ANYWHERE: unbound variable"},
		{"errexit", `false`, "Exiting with status 1"},
		{"pipefail", `false | cat`, "Exiting with status 1"},
		{"inherit_errexit", `v=$(false; echo inside); echo "$v"`, "Exiting with status 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := hookRun(t, "", tc.body+"\necho never")
			if res.code == 0 || res.stdout != "" || !strings.Contains(res.stderr, tc.stderr) {
				t.Fatalf("status %d, stdout %q, stderr\n%s\nwant a failure saying %q", res.code, res.stdout, res.stderr, tc.stderr)
			}
		})
	}
}

// The ERR trap prints the stack, outermost frame first, each with its
// source line, and the status; errexit then ends the hook with it.
func TestBacktrace(t *testing.T) {
	lib := filepath.Join(libDir(t), "shell_lib.sh")
	text := script(lib, `inner() {
  return 7
}
outer() {
      inner
}
outer
echo never`)
	res := run{text: text}.exec(t)
	res.expect(t, 7, "")
	// The hook's path is the temp file run wrote.
	_, rest, _ := strings.Cut(res.stderr, `File "`)
	hook, _, _ := strings.Cut(rest, `"`)
	want := `Traceback (most recent call last):
  File "` + hook + `", line 9, in main
    outer
  File "` + hook + `", line 7, in outer
    inner
Exiting with status 7
`
	if res.stderr != want || filepath.Base(hook) != "hook.sh" {
		t.Fatalf("stderr\n%s\nwant\n%s", res.stderr, want)
	}
}

// writeTree writes files (path -> content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	scenario.WriteTree(t, root, files, 0o644)
}

// SHELL_LIB_FRAMEWORKS_DIR names the dir to load: every *.sh in it, any
// case, sub-dirs too, in byte order of the path, at the hook's top level
// (a declare there makes a global).
func TestLoaderOverride(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"b.sh":     "LOADED+=(b)\n",
		"A.SH":     "LOADED+=(A)\ndeclare -A FROM_A=([k]=v)\n",
		"a.sh":     "LOADED+=(a)\n",
		"sub/c.sh": "LOADED+=(sub/c)\n",
		"notes.md": "LOADED+=(md)\n",
	})
	lib := filepath.Join(libDir(t), "shell_lib.sh")
	res := run{text: script(lib, `echo "${LOADED[*]} ${FROM_A[k]}"; type hook::run >/dev/null 2>&1 || echo "no hook::run"`),
		env: []string{"SHELL_LIB_FRAMEWORKS_DIR=" + dir}}.exec(t)
	res.expect(t, 0, "A a b sub/c v\nno hook::run\n")

	res = run{text: script(lib, `echo never`), env: []string{"SHELL_LIB_FRAMEWORKS_DIR=" + filepath.Join(dir, "missing")}}.exec(t)
	if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "shell_lib.sh: SHELL_LIB_FRAMEWORKS_DIR="+filepath.Join(dir, "missing")+" is not a directory") {
		t.Fatalf("a missing override: status %d, stdout %q, stderr\n%s", res.code, res.stdout, res.stderr)
	}
}

// copyLib copies shell_lib.sh, and the frameworks dir when withFrameworks,
// into a new dir, and returns it.
func copyLib(t *testing.T, withFrameworks bool) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	names := []string{"shell_lib.sh"}
	if withFrameworks {
		names = append(names, "frameworks/shell/hook.sh", "frameworks/shell/context.sh")
		files["frameworks/shell/zz-marker.sh"] = "FROM_COPY=yes\n"
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(libDir(t), name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	writeTree(t, dir, files)
	return dir
}

// Without the override, and without /frameworks/shell, the library loads
// the frameworks dir next to it, however it was named when sourced; with
// none anywhere, sourcing fails and the hook stops, naming what it tried.
func TestLoaderFallback(t *testing.T) {
	for _, d := range []string{"/frameworks/shell", "/framework/shell"} {
		if _, err := os.Stat(d); err == nil {
			t.Skipf("%s exists on this machine: the library loads it first", d)
		}
	}
	dir := copyLib(t, true)
	body := `__main__() { echo "$FROM_COPY $BINDING_CONTEXT_CURRENT_BINDING"; }
hook::run`
	for _, source := range []string{filepath.Join(dir, "shell_lib.sh"), "./shell_lib.sh", "shell_lib.sh"} {
		text := "#!/usr/bin/env bash\ncd '" + dir + "'\nsource " + source + "\n" + body + "\n"
		run{text: text, contexts: `[{"binding":"beforeHelm"}]`, env: []string{"SHELL_LIB_FRAMEWORKS_DIR="}}.exec(t).expect(t, 0, "yes beforeHelm\n")
	}

	bare := copyLib(t, false)
	res := run{text: script(filepath.Join(bare, "shell_lib.sh"), "echo never"), env: []string{"SHELL_LIB_FRAMEWORKS_DIR="}}.exec(t)
	if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "shell_lib.sh: no frameworks dir (tried /frameworks/shell, "+bare+"/frameworks/shell, /framework/shell)") {
		t.Fatalf("no frameworks dir: status %d, stdout %q, stderr\n%s", res.code, res.stdout, res.stderr)
	}
}

// The scripts parse, and shellcheck finds nothing (.ci/run installs it).
func TestScriptsLint(t *testing.T) {
	files := []string{"shell_lib.sh", "frameworks/shell/hook.sh", "frameworks/shell/context.sh"}
	for _, f := range files {
		if out, err := exec.Command("bash", "-n", f).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", f, err, out)
		}
	}
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Fatalf("shellcheck is not installed (Debian package shellcheck; .ci/run installs it): %v", err)
	}
	if out, err := exec.Command("shellcheck", append([]string{"-s", "bash"}, files...)...).CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// The library runs with nothing on PATH but bash and jq: loading, dispatch,
// every context function and the traceback of a failing handler.
func TestNeedsOnlyBashAndJq(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"bash", "jq"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	body := `__on_kubernetes::first() { echo "first $(context::get binding)"; }
__on_kubernetes::pods::added_or_modified() {
  echo "$(context::get 'object.metadata.labels."app.kubernetes.io/name"') $(context::get object.spec.list.1.x)"
  context::has object.spec.obj.k && context::is_true object.spec.enabled && context::is_false object.spec.off &&
    context::is_null object.spec.nothing && echo "has, is_true, is_false, is_null"
  context::get --required object.spec.missing
}
hook::run "$@"`
	res := run{text: script(filepath.Join(libDir(t), "shell_lib.sh"), body), contexts: contextFile,
		env: []string{"PATH=" + bin}}.exec(t)
	res.expect(t, 1, "first first\nweb 2\nhas, is_true, is_false, is_null\n")
	for _, want := range []string{"Error: Value object.spec.missing required, but doesn't exist", "Traceback (most recent call last):",
		"    context::get --required object.spec.missing", "ERROR: handler __on_kubernetes::pods::added_or_modified failed with exit status 1"} {
		if !strings.Contains(res.stderr, want) {
			t.Fatalf("stderr has no %q:\n%s", want, res.stderr)
		}
	}
	if strings.Contains(res.stderr, "command not found") {
		t.Fatalf("a program other than bash and jq:\n%s", res.stderr)
	}
}
