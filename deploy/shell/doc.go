// Package shell holds the tests of the shell library for hooks:
// shell_lib.sh (installed as /shell_lib.sh) and frameworks/shell/*.sh
// (installed under /frameworks/shell/, also reached as /framework/shell/).
// The library is bash; its tests run real bash scripts that source it
// against binding-context files, and need bash (4.4 or later) and jq.
package shell
