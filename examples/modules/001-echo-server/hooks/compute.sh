#!/usr/bin/env bash
# beforeHelm: computes a value in memory ($VALUES_JSON_PATCH_PATH); helm
# renders it, the ConfigMap addon-operator never sees it.
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  echo '{"configVersion":"v1","beforeHelm":10}'
  exit 0
fi
echo "echo-server: computing values (binding context: $(cat "$BINDING_CONTEXT_PATH"))"
echo '[{"op":"add","path":"/echoServer/computedBy","value":"hooks/compute.sh"}]' > "$VALUES_JSON_PATCH_PATH"
# A metric of the hook's own, served on /metrics/hooks.
echo '{"name":"echo_server_computations_total","action":"add","value":1,"labels":{"by":"compute"}}' >> "$METRICS_PATH"
