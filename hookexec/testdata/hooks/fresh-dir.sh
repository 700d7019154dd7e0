#!/usr/bin/env bash
# Records what a run finds in its directory (lib/record-run.sh), then
# dirties the directory so that a run given the same directory again would
# notice.
set -eu
. "$(dirname "$0")/lib/record-run.sh"
record_run > "$(mktemp "$OUT_DIR/run-XXXXXX")"
dir=$(dirname "$VALUES_PATH")
echo '[]' > "$VALUES_JSON_PATCH_PATH"
echo '---' > "$KUBERNETES_PATCH_PATH"
touch "$dir/leftover"
