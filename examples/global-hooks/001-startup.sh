#!/usr/bin/env bash
# onStartup: runs once, before the modules, and records when it ran in the
# global values (memory only).
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  echo '{"configVersion":"v1","onStartup":1}'
  exit 0
fi
echo "global onStartup hook: values are $(cat "$VALUES_PATH")"
echo "[{\"op\":\"add\",\"path\":\"/global/startedAt\",\"value\":\"$(date -u +%FT%TZ)\"}]" > "$VALUES_JSON_PATCH_PATH"
