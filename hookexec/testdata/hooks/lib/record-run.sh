# record_run prints what a run finds in its directory: the directory, its
# files, any output file that is not empty or missing, and the values.
record_run() {
  local dir f
  dir=$(dirname "$VALUES_PATH")
  echo "$dir"
  ls "$dir" | tr '\n' ' '
  echo
  for f in "$VALUES_JSON_PATCH_PATH" "$CONFIG_VALUES_JSON_PATCH_PATH" "$METRICS_PATH" "$KUBERNETES_PATCH_PATH"; do
    if [[ ! -f $f || -s $f ]]; then echo "missing or not empty: $f"; fi
  done
  cat "$VALUES_PATH"
}
