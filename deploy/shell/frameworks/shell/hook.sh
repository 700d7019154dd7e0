#!/usr/bin/env bash
# hook.sh: hook::run, the entry point of a hook written with the shell
# framework (loaded by /shell_lib.sh). Written for this project from the
# behaviour of shell-operator's framework; no upstream code.
#
# Handlers are functions named after the binding context they handle; for
# each context the first of these that is defined runs (any command on PATH
# counts too), then __main__, which is always the last choice:
#
#   binding onStartup (by name)   __on_startup
#   Synchronization               __on_kubernetes::<binding>::synchronization
#                                 __on_kubernetes::<binding>
#   Event, watchEvent Added       __on_kubernetes::<binding>::added
#                                 __on_kubernetes::<binding>::added_or_modified
#                                 __on_kubernetes::<binding>
#   Event, watchEvent Modified    __on_kubernetes::<binding>::modified
#                                 __on_kubernetes::<binding>::added_or_modified
#                                 __on_kubernetes::<binding>
#   Event, watchEvent Deleted     __on_kubernetes::<binding>::deleted
#                                 __on_kubernetes::<binding>
#   Group                         __on_group::<groupName>
#   Schedule                      __on_schedule::<binding>
#   Validating                    __on_validating::<binding>
#   Mutating                      __on_mutating::<binding>
#   Conversion                    __on_conversion::<binding>::<from>::<to>
#                                 __on_conversion::<binding>
#   anything else (beforeHelm,    only __main__
#   afterHelm, beforeAll, ...)
#
# <from> and <to> are fromVersion and toVersion with their first "/" made a
# ".": stable.example.com/v1 -> stable.example.com.v1.

# hook::_handlers_program is the jq program that prints, for each binding
# context, its binding, a tab, and its handler names separated by spaces.
# A builtin prints it: the library needs no program but bash and jq.
hook::_handlers_program() {
  # shellcheck disable=SC2016 # jq's own $variables
  printf '%s\n' 'def dotted: (index("/")) as $i | if $i == null then . else .[:$i] + "." + .[$i + 1:] end;
if type != "array" then error("the binding context is not a JSON array") else .[] end
| ((.binding // "unknown") | tostring) as $b
| "__on_kubernetes::\($b)" as $k
| (if .binding == "onStartup" then ["__on_startup"]
   elif .type == "Synchronization" then ["\($k)::synchronization", $k]
   elif .type == "Event" then
     if .watchEvent == "Added" then ["\($k)::added", "\($k)::added_or_modified", $k]
     elif .watchEvent == "Modified" then ["\($k)::modified", "\($k)::added_or_modified", $k]
     elif .watchEvent == "Deleted" then ["\($k)::deleted", $k]
     else [] end
   elif .type == "Group" then ["__on_group::\(.groupName)"]
   elif .type == "Schedule" then ["__on_schedule::\($b)"]
   elif .type == "Validating" then ["__on_validating::\($b)"]
   elif .type == "Mutating" then ["__on_mutating::\($b)"]
   elif .type == "Conversion" then
     ["__on_conversion::\($b)::\(.fromVersion // "" | tostring | dotted)::\(.toVersion // "" | tostring | dotted)",
      "__on_conversion::\($b)"]
   else [] end) as $names
| "\($b)\t\($names + ["__main__"] | join(" "))"'
}

# hook::run [--config] is the last line of a hook: `hook::run "$@"`.
#
# With --config it runs __config__ (which prints the hook's configuration)
# and exits 0. Otherwise it runs one handler per binding context of
# $BINDING_CONTEXT_PATH, in order, each in a subshell with no arguments,
# with BINDING_CONTEXT_CURRENT_INDEX and BINDING_CONTEXT_CURRENT_BINDING
# exported (HANDLERS and CONTEXT_LENGTH are set too). A handler that fails
# ends the hook with its exit status and the remaining contexts do not
# run; a context without a handler ends it with status 1.
hook::run() {
  if [[ ${1:-} == --config ]]; then
    __config__
    exit 0
  fi
  local listing line
  local -a plan=()
  listing=$(jq -r "$(hook::_handlers_program)" "${BINDING_CONTEXT_PATH:?hook::run: BINDING_CONTEXT_PATH is not set}")
  if [[ -n $listing ]]; then
    mapfile -t plan <<<"$listing"
  fi
  CONTEXT_LENGTH=${#plan[@]}
  local -i i
  for ((i = 0; i < CONTEXT_LENGTH; i++)); do
    line=${plan[i]}
    export BINDING_CONTEXT_CURRENT_INDEX=$i
    export BINDING_CONTEXT_CURRENT_BINDING=${line%%$'\t'*}
    HANDLERS=${line#*$'\t'}
    hook::_run_first_available_handler "$HANDLERS"
  done
}

# hook::_run_first_available_handler "<names>" runs the first defined name
# of the space-separated list (see hook::_run_handler). When no name is
# defined it exits the hook with status 1 and one line on stderr naming
# the context.
hook::_run_first_available_handler() {
  local name list
  local -a names
  read -r -a names <<<"$1"
  for name in "${names[@]}"; do
    if type "$name" >/dev/null 2>&1; then
      hook::_run_handler "$name"
      return 0
    fi
  done
  printf -v list '%s, ' "${names[@]}"
  echo "ERROR: Can't find any handler from the list: ${list%, } ($(hook::_where))" >&2
  exit 1
}

# hook::_where names the current binding context for an error line.
hook::_where() {
  echo "binding context $BINDING_CONTEXT_CURRENT_INDEX, binding $BINDING_CONTEXT_CURRENT_BINDING"
}

# hook::_run_handler name runs name in a subshell with no arguments, under
# the caller's errexit and ERR trap. When it fails, the hook exits with its
# status and one line on stderr naming the handler and the context.
#
# The caller's errexit and ERR trap are off around the subshell only, so
# that a failing handler prints one traceback (its own) and not a second
# one for the subshell's status; the status is read in this function and
# never returned, because bash ignores errexit for good inside anything
# run after `if`, `||`, `&&` or `!`, handlers included. For the same
# reason a hook calls hook::run as a plain command.
hook::_run_handler() {
  local name=$1 err_trap
  local -i errexit=0 status
  if [[ $- == *e* ]]; then
    errexit=1
  fi
  err_trap=$(trap -p ERR)
  set +e
  trap - ERR
  (
    if ((errexit)); then
      set -e
    fi
    eval "$err_trap"
    "$name"
  )
  status=$?
  if ((status != 0)); then
    echo "ERROR: handler $name failed with exit status $status ($(hook::_where))" >&2
    exit "$status"
  fi
  if ((errexit)); then
    set -e
  fi
  eval "$err_trap"
}
