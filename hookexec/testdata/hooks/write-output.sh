#!/usr/bin/env bash
# Writes into the output file that the variable named $OUTPUT_VAR names
# (METRICS_PATH, MODULE_ENABLED_RESULT...), as $OUTPUT_MODE says:
#   spaces N   N spaces (JSON whitespace: an empty patch, no metrics)
#   sparse N   a sparse file of N bytes, made at once
#   link PATH  a symlink to PATH in the file's place
#   fifo       a FIFO in the file's place, which nobody writes
set -eu
file=${!OUTPUT_VAR}
read -r mode arg <<<"$OUTPUT_MODE"
case $mode in
spaces) head -c "$arg" /dev/zero | tr '\0' ' ' >"$file" ;;
sparse) truncate -s "$arg" "$file" ;;
link) ln -sf "$arg" "$file" ;;
fifo) rm -f "$file" && mkfifo "$file" ;;
*) echo "unknown OUTPUT_MODE $OUTPUT_MODE" >&2 && exit 2 ;;
esac
