package hookexec

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// shebangMax is how much of a script the kernel reads for its #! line.
const shebangMax = 256

// isEnvPath tells the paths of env(1) a `#!/usr/bin/env NAME` line names.
func isEnvPath(path string) bool { return path == "/usr/bin/env" || path == "/bin/env" }

// command is what to execute for a hook: its file and arguments, or, for a
// script whose first line is `#!/usr/bin/env NAME`, the interpreter that
// env(1) would find, started as env would start it. The kernel would run
// env, and env would search PATH and replace itself with NAME: the same
// program, arguments (argv[0] NAME, then the script and its arguments) and
// environment, but a second exec, which costs as much as a small hook
// itself on some machines (3 ms of CPU per run measured on this project's
// 2-core VM). Anything else — another interpreter, env with options, a name
// with a slash or '=', a line the kernel would read otherwise (a CR at its
// end), a name not found on the hook's PATH, a file the operator cannot
// read — runs as before, through the kernel.
func command(path string, args, env []string, dir string) (file string, argv []string) {
	name, ok := envShebang(path)
	if !ok {
		return path, append([]string{path}, args...)
	}
	interp, ok := lookPath(name, lastValue(env, "PATH"), dir)
	if !ok {
		return path, append([]string{path}, args...)
	}
	return interp, append([]string{name, path}, args...)
}

// envShebang returns NAME of a first line `#!/usr/bin/env NAME` (the
// kernel's reading: an interpreter path, then at most one argument).
func envShebang(path string) (string, bool) {
	f, err := openRaw(path, os.O_RDONLY, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, shebangMax)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return "", false
	}
	line, _, found := bytes.Cut(buf[:n], []byte("\n"))
	if !found || !bytes.HasPrefix(line, []byte("#!")) || bytes.ContainsAny(line, "\r\x00") {
		return "", false
	}
	fields := strings.Fields(string(line[2:]))
	if len(fields) != 2 || !isEnvPath(fields[0]) {
		return "", false
	}
	name := fields[1]
	if strings.HasPrefix(name, "-") || strings.ContainsAny(name, "/=") {
		return "", false
	}
	return name, true
}

// lookPath finds name as execvp(3) does in the PATH value pathVar (an
// empty entry is the current directory, dir); false when PATH is unset or
// nothing executable is found.
func lookPath(name string, pathVar *string, dir string) (string, bool) {
	if pathVar == nil {
		return "", false
	}
	for _, d := range filepath.SplitList(*pathVar) {
		if d == "" {
			d = dir
		}
		file := filepath.Join(d, name)
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
			return file, loadable(file)
		}
	}
	return "", false
}

// loadable tells a file the kernel runs itself (an ELF binary or a #!
// script) from one execvp(3) would hand to /bin/sh: those stay with env.
func loadable(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	return bytes.Equal(head, []byte("\x7fELF")) || bytes.HasPrefix(head, []byte("#!"))
}

// lastValue is the value of the last name=value in env (exec passes the
// last of duplicates), nil when there is none.
func lastValue(env []string, name string) *string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return &v
		}
	}
	return nil
}
