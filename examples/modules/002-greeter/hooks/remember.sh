#!/usr/bin/env bash
# afterHelm: writes a config values patch, which lands in ConfigMap
# addon-operator at once (key greeter, field lastGreeted).
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  echo '{"configVersion":"v1","afterHelm":10}'
  exit 0
fi
echo '[{"op":"add","path":"/greeter/greeted","value":true}]' > "$CONFIG_VALUES_JSON_PATCH_PATH"
