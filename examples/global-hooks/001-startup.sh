#!/usr/bin/env bash
# onStartup: runs once, before the modules, and adds a discovered value to
# the global values (memory only; every module and chart sees it).
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  echo '{"configVersion":"v1","onStartup":1}'
  exit 0
fi
echo "global onStartup hook: values are $(cat "$VALUES_PATH")"
echo '[{"op":"add","path":"/global/discovery","value":{"clusterDomain":"cluster.local"}}]' > "$VALUES_JSON_PATCH_PATH"
