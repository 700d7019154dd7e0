#!/usr/bin/env bash
# Records what a run finds in its directory (lib/record-run.sh) and its
# binding context, then dirties every file of the run without adding one,
# so that a run given the same directory again would notice what was not
# reset.
set -eu
. "$(dirname "$0")/lib/record-run.sh"
{ record_run; echo; cat "$BINDING_CONTEXT_PATH"; } > "$(mktemp "$OUT_DIR/run-XXXXXX")"
echo '[]' > "$VALUES_JSON_PATCH_PATH"
echo '[]' > "$CONFIG_VALUES_JSON_PATCH_PATH"
echo '{"name":"m","action":"set","value":1}' > "$METRICS_PATH"
echo '---' > "$KUBERNETES_PATCH_PATH"
echo 'a long tail the next run must not see' >> "$VALUES_PATH"
echo 'a long tail the next run must not see' >> "$BINDING_CONTEXT_PATH"
