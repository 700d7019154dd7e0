#!/usr/bin/env bash
# context.sh: read the binding context of the hook run (shell framework,
# loaded by /shell_lib.sh). Written for this project from the behaviour of
# shell-operator's framework; no upstream code.
#
# Paths are "user paths": dot-separated keys, where
#   a quoted key keeps its dots           a."b.c".d  -> .a."b.c".d
#   single quotes are double quotes       a.'b.c'    -> .a."b.c"
#   a key with a dash is quoted           a.my-key   -> .a."my-key"
#   an all-digit key is an array index    a.0.b      -> .a[0].b, 0 -> .[0]
#   an empty path is the whole context    ""         -> .
# Any other character passes to jq as it is, so `objects[0].filterResult`
# and `objects | length` work; a key with a space, "/" or "[" must be
# quoted to be read as a key. Empty segments (a leading or doubled dot)
# are skipped: `.a` is `a`.

# context::global::jq runs jq with the caller's arguments on the whole
# binding context array ($BINDING_CONTEXT_PATH).
context::global::jq() {
  jq "$@" "${BINDING_CONTEXT_PATH:?context::global::jq: BINDING_CONTEXT_PATH is not set}"
}

# context::jq runs jq with the caller's arguments on the current binding
# context (the element hook::run is dispatching). Every flag (-r, -c, -e,
# --arg ...) applies to that one object.
context::jq() {
  local index=${BINDING_CONTEXT_CURRENT_INDEX:?context::jq: no current binding context; call it from a handler that hook::run runs, or set BINDING_CONTEXT_CURRENT_INDEX}
  # shellcheck disable=SC2016 # $i is jq's variable
  context::global::jq --argjson i "$index" '.[$i]' | jq "$@"
}

# context::_split_user_path splits a user path into the array named by its
# first argument: quoted segments keep their quotes (single ones turned
# into double ones) and their dots; empty segments are dropped.
context::_split_user_path() {
  local -n __context_segments=$1
  local path=${2//\'/\"} segment="" char
  local -i i quoted=0
  __context_segments=()
  for ((i = 0; i < ${#path}; i++)); do
    char=${path:i:1}
    if [[ $char == '"' ]]; then
      quoted=$((1 - quoted))
    elif [[ $char == . && $quoted == 0 ]]; then
      if [[ -n $segment ]]; then
        __context_segments+=("$segment")
      fi
      segment=""
      continue
    fi
    segment+=$char
  done
  if [[ -n $segment ]]; then
    __context_segments+=("$segment")
  fi
}

# context::_jq_path turns the segments given as arguments into a jq path.
context::_jq_path() {
  local result="" segment
  for segment in "$@"; do
    if [[ $segment =~ ^[0-9]+$ ]]; then
      result+="[$segment]"
    elif [[ $segment == \"* || $segment != *-* ]]; then
      result+=".$segment"
    else
      result+=".\"$segment\""
    fi
  done
  # An index first needs the dot in front: [0] -> .[0].
  if [[ $result != .* ]]; then
    result=".$result"
  fi
  echo "$result"
}

# context::_convert_user_path_to_jq_path prints the jq path of a user path.
context::_convert_user_path_to_jq_path() {
  local -a segments
  context::_split_user_path segments "${1:-}"
  context::_jq_path "${segments[@]}"
}

# context::get [--required] [path] prints the value at path in the current
# binding context: strings raw, objects and arrays as JSON, null when it
# is missing; no path prints the whole context. With --required, a path
# that does not exist is an error (status 1).
context::get() {
  local required=0
  if [[ ${1:-} == --required ]]; then
    required=1
    shift
  fi
  local path=${1:-}
  if ((required)) && ! context::has "$path"; then
    echo "Error: Value $path required, but doesn't exist" >&2
    return 1
  fi
  context::jq -r "$(context::_convert_user_path_to_jq_path "$path")"
}

# context::has path: status 0 when the last key of path exists in its
# parent, 1 when it does not, 5 when the parent cannot have keys (a string,
# null: a jq type error), 3 when the path is not valid jq. An all-digit
# last key is an array index; a quoted one is taken whole, dots and all.
context::has() {
  local -a segments
  context::_split_user_path segments "${1:-}"
  local -i n=${#segments[@]}
  if ((n == 0)); then
    # The whole context always exists.
    context::jq -e 'true' >/dev/null
    return
  fi
  local last=${segments[n - 1]} parent
  parent=$(context::_jq_path "${segments[@]:0:n-1}")
  if [[ $last =~ ^[0-9]+$ || $last == \"*\" ]]; then
    # An index is a number; a quoted key is already a jq string.
    context::jq -e "$parent | has($last)" >/dev/null
  else
    context::jq -e --arg key "$last" "$parent | has(\$key)" >/dev/null
  fi
}

# context::is_true path: status 0 when the value at path is JSON true.
context::is_true() {
  context::jq -e "$(context::_convert_user_path_to_jq_path "${1:-}") == true" >/dev/null
}

# context::is_false path: status 0 when the value at path is JSON false.
context::is_false() {
  context::jq -e "$(context::_convert_user_path_to_jq_path "${1:-}") == false" >/dev/null
}

# context::is_null path: status 0 when the value at path is null or the
# key is missing.
context::is_null() {
  context::jq -e "$(context::_convert_user_path_to_jq_path "${1:-}") == null" >/dev/null
}
