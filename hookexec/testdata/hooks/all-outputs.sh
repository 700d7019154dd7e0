#!/usr/bin/env bash
# Records what it was given into $OUT_DIR and writes every output file.
set -euo pipefail
if [[ ${1:-} == --config ]]; then
  echo '{"configVersion":"v1","onStartup":1}'
  exit 0
fi
env > "$OUT_DIR/env"
pwd > "$OUT_DIR/pwd"
cat "$BINDING_CONTEXT_PATH" > "$OUT_DIR/binding_context"
cat "$VALUES_PATH" > "$OUT_DIR/values"
cat "$CONFIG_VALUES_PATH" > "$OUT_DIR/config_values"
stat -c '%a' "$(dirname "$VALUES_PATH")" > "$OUT_DIR/dir_mode"
stat -c '%a' "$VALUES_PATH" > "$OUT_DIR/file_mode"
dirname "$VALUES_PATH" > "$OUT_DIR/tmp_dir"
echo '[{"op":"add","path":"/someModule/param3","value":"newValue"}]' > "$VALUES_JSON_PATCH_PATH"
echo '{"op":"replace","path":"/someModule/a","value":1}' >> "$CONFIG_VALUES_JSON_PATCH_PATH"
echo '[{"op":"remove","path":"/someModule/b"}]' >> "$CONFIG_VALUES_JSON_PATCH_PATH"
cat > "$METRICS_PATH" <<'METRICS'
{"name":"hook_gauge","action":"set","value":3,"labels":{"a":"b"}}
{"name":"hook_counter","action":"add","value":1,"group":"g1"}
{"name":"hook_hist","action":"observe","value":0.5,"buckets":[0.1,1]}
{"action":"expire","group":"g0"}
METRICS
echo "plain stdout line"
echo '{"msg":"structured","level":"warn","count":2}'
echo "a stderr line" >&2
