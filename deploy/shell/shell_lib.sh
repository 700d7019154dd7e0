#!/usr/bin/env bash
# shell_lib.sh: the shell framework for hooks, installed as /shell_lib.sh.
#
# A hook sources it, defines handler functions and calls `hook::run "$@"`
# last:
#
#   #!/usr/bin/env bash
#   source /shell_lib.sh
#   __config__() { echo '{"configVersion":"v1","onStartup":1}'; }
#   __on_startup() { echo "started, binding $(context::get binding)"; }
#   hook::run "$@"
#
# Written for this project from the behaviour of shell-operator's framework
# (the same functions, dispatch and exit statuses); no upstream code.
#
# Sourcing it changes the calling shell, on purpose, as the original does:
# strict mode (errexit, errtrace, nounset, pipefail, inherit_errexit,
# failglob) and a Python-style traceback on stderr for every failing
# command (the ERR trap). Then it loads every *.sh file of the frameworks
# dir, in byte order of their paths:
#
#   $SHELL_LIB_FRAMEWORKS_DIR  when set (a dir that is missing is an error);
#   /frameworks/shell          the image's dir (shell-operator's layout);
#   <dir of this file>/frameworks/shell
#                              a copy kept next to the library (tests, a
#                              hook repository that vendors the library);
#   /framework/shell           the stock addon-operator image's dir.
#
# The first that exists wins. When none does, sourcing prints an error and
# fails, so the hook stops there (the original went on and failed later at
# `hook::run: command not found`).

set -Eeuo pipefail
shopt -s inherit_errexit failglob

# backtrace prints the bash call stack of the failing command to stderr,
# outermost frame first, with the source line of each frame. It is the ERR
# trap: errexit ends the script, not this function. With errtrace it fires
# in functions and subshells too, so a failure inside a command
# substitution prints one traceback there and one where the substitution's
# status fails its caller.
backtrace() {
  local status=$?
  local -i depth=${#FUNCNAME[@]} i
  local src func text
  local -a line
  echo "Traceback (most recent call last):" >&2
  # Frame i ran function FUNCNAME[i] of BASH_SOURCE[i] and stood at line
  # BASH_LINENO[i-1]; frame 0 is this trap. `bash -c` has no main frame.
  for ((i = depth > 1 ? depth - 1 : 1; i >= 1; i--)); do
    src=${BASH_SOURCE[i]:-$0}
    func=${FUNCNAME[i]:-main}
    echo "  File \"$src\", line ${BASH_LINENO[i - 1]}, in $func" >&2
    if [[ -f $src && -r $src ]] && ((BASH_LINENO[i - 1] > 0)); then
      line=()
      mapfile -t -s $((BASH_LINENO[i - 1] - 1)) -n 1 line <"$src" || true
      text=${line[0]:-}
      text=${text#"${text%%[![:space:]]*}"}
      echo "    $text" >&2
    fi
  done
  echo "Exiting with status $status" >&2
}
trap backtrace ERR

# shell_lib::_frameworks_dir prints the frameworks dir to load (see the
# header for the order).
shell_lib::_frameworks_dir() {
  if [[ -n ${SHELL_LIB_FRAMEWORKS_DIR:-} ]]; then
    if [[ -d $SHELL_LIB_FRAMEWORKS_DIR ]]; then
      echo "$SHELL_LIB_FRAMEWORKS_DIR"
      return 0
    fi
    echo "shell_lib.sh: SHELL_LIB_FRAMEWORKS_DIR=$SHELL_LIB_FRAMEWORKS_DIR is not a directory" >&2
    return 1
  fi
  local here=. candidate
  if [[ ${BASH_SOURCE[0]} == */* ]]; then
    here=${BASH_SOURCE[0]%/*}
  fi
  here=$(cd "${here:-/}" && pwd)
  for candidate in /frameworks/shell "$here/frameworks/shell" /framework/shell; do
    if [[ -d $candidate ]]; then
      echo "$candidate"
      return 0
    fi
  done
  echo "shell_lib.sh: no frameworks dir (tried /frameworks/shell, $here/frameworks/shell, /framework/shell); set SHELL_LIB_FRAMEWORKS_DIR" >&2
  return 1
}

# shell_lib::_files prints the *.sh files (any case) under dir, sub-dirs
# too, NUL-separated and sorted by path in byte order, so every hook loads
# them in the same order whatever the file system lists first.
shell_lib::_files() {
  local dir=$1 file
  local LC_ALL=C
  shopt -s nullglob nocaseglob globstar
  shopt -u failglob
  for file in "$dir"/**/*.sh; do
    if [[ -f $file ]]; then
      printf '%s\0' "$file"
    fi
  done
}

# Sourced at the top level, not in a function: a `declare` in a framework
# file must make a global, as it would in the hook itself. A `return` here
# fails the hook's `source` command, and errexit stops the hook.
__shell_lib_dir=$(shell_lib::_frameworks_dir) || return 1
mapfile -d '' -t __shell_lib_files < <(shell_lib::_files "$__shell_lib_dir")
for __shell_lib_file in "${__shell_lib_files[@]}"; do
  # shellcheck source=/dev/null
  source "$__shell_lib_file"
done
unset __shell_lib_dir __shell_lib_files __shell_lib_file
