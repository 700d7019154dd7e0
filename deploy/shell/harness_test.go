package shell_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// libDir is this package's dir: deploy/shell, which holds shell_lib.sh
// and frameworks/shell/.
func libDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// script is a bash hook that sources the library at lib, then runs body.
func script(lib, body string) string {
	return "#!/usr/bin/env bash\nsource '" + lib + "'\n" + body + "\n"
}

// run is one bash run of a hook script.
type run struct {
	// text is the whole script (see script()).
	text string
	// contexts is the binding context JSON; "" leaves
	// BINDING_CONTEXT_PATH unset.
	contexts string
	args     []string
	// env is added to a clean environment in which SHELL_LIB_FRAMEWORKS_DIR
	// points at this package's frameworks/shell (set it to "" to unset).
	env []string
}

type result struct {
	stdout, stderr string
	code           int
}

// environ is the test's environment without the variables the library
// reads, so that the caller's shell cannot change a result.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "BINDING_CONTEXT_") || name == "SHELL_LIB_FRAMEWORKS_DIR" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// exec runs the script in a temp dir and returns what it printed and its
// exit status.
func (r run) exec(t *testing.T) result {
	t.Helper()
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the shell library's tests need %s: %v", tool, err)
		}
	}
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte(r.text), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(environ(), "SHELL_LIB_FRAMEWORKS_DIR="+filepath.Join(libDir(t), "frameworks", "shell"))
	if r.contexts != "" {
		path := filepath.Join(dir, "binding_context.json")
		if err := os.WriteFile(path, []byte(r.contexts), 0o644); err != nil {
			t.Fatal(err)
		}
		env = append(env, "BINDING_CONTEXT_PATH="+path)
	}
	cmd := exec.Command("bash", append([]string{hook}, r.args...)...)
	cmd.Dir = dir
	cmd.Env = append(env, r.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	res := result{}
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("run bash: %v", err)
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	return res
}

// hookRun runs body after sourcing the library of this package.
func hookRun(t *testing.T, contexts, body string, args ...string) result {
	t.Helper()
	return run{text: script(filepath.Join(libDir(t), "shell_lib.sh"), body), contexts: contexts, args: args}.exec(t)
}

// expect fails the test unless res has the status and stdout.
func (res result) expect(t *testing.T, code int, stdout string) {
	t.Helper()
	if res.code != code || res.stdout != stdout {
		t.Fatalf("status %d, stdout\n%s\nwant status %d, stdout\n%s\nstderr:\n%s", res.code, res.stdout, code, stdout, res.stderr)
	}
}

// lastLine is the last line of text.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return lines[len(lines)-1]
}
