#!/usr/bin/env bash
# Records what a run finds in its directory (the directory, its files, any
# output file that is not empty, the values), then dirties the directory so
# that a run given the same directory again would notice.
set -eu
dir=$(dirname "$VALUES_PATH")
{
  echo "$dir"
  ls "$dir" | tr '\n' ' '
  echo
  for f in "$VALUES_JSON_PATCH_PATH" "$CONFIG_VALUES_JSON_PATCH_PATH" "$METRICS_PATH" "$KUBERNETES_PATCH_PATH"; do
    if [[ ! -f $f || -s $f ]]; then echo "missing or not empty: $f"; fi
  done
  cat "$VALUES_PATH"
} > "$(mktemp "$OUT_DIR/run-XXXXXX")"
echo '[]' > "$VALUES_JSON_PATCH_PATH"
echo '---' > "$KUBERNETES_PATCH_PATH"
touch "$dir/leftover"
