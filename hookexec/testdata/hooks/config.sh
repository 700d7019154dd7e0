#!/usr/bin/env bash
# Prints $CONFIG_TEXT for --config and reports where it ran on stderr.
if [[ ${1:-} == --config ]]; then
  printf '%s' "$CONFIG_TEXT"
  echo "pwd=$PWD working_dir=$WORKING_DIR" >&2
  exit "${CONFIG_EXIT:-0}"
fi
exit 0
