#!/usr/bin/env bash
# Records what a run finds in its directory (the directory, its files, any
# output file that is not empty, the values and binding context), then
# dirties every file of the run without adding one, so that a run given
# the same directory again would notice what was not reset.
set -eu
dir=$(dirname "$VALUES_PATH")
{
  echo "$dir"
  ls "$dir" | tr '\n' ' '
  echo
  for f in "$VALUES_JSON_PATCH_PATH" "$CONFIG_VALUES_JSON_PATCH_PATH" "$METRICS_PATH" "$KUBERNETES_PATCH_PATH"; do
    if [[ ! -f $f || -s $f ]]; then echo "missing or not empty: $f"; fi
  done
  cat "$VALUES_PATH"; echo
  cat "$BINDING_CONTEXT_PATH"
} > "$(mktemp "$OUT_DIR/run-XXXXXX")"
echo '[]' > "$VALUES_JSON_PATCH_PATH"
echo '[]' > "$CONFIG_VALUES_JSON_PATCH_PATH"
echo '{"name":"m","action":"set","value":1}' > "$METRICS_PATH"
echo '---' > "$KUBERNETES_PATCH_PATH"
echo 'a long tail the next run must not see' >> "$VALUES_PATH"
echo 'a long tail the next run must not see' >> "$BINDING_CONTEXT_PATH"
