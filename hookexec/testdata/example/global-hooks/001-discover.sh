#!/usr/bin/env bash
# A global hook in the style users write: config on --config, else a patch.
source "$WORKING_DIR/lib/common.sh"
if [[ ${1:-} == --config ]]; then
  cat <<CONFIG
{"configVersion": "v1", "onStartup": 10, "schedule": [{"name": "hourly", "crontab": "0 * * * *"}]}
CONFIG
  exit 0
fi
log "binding context: $(cat "$BINDING_CONTEXT_PATH")"
echo '[{"op":"add","path":"/global/discovered","value":true}]' > "$VALUES_JSON_PATCH_PATH"
