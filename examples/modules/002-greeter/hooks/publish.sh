#!/usr/bin/env bash
# afterHelm: object patches ($KUBERNETES_PATCH_PATH), applied by the operator
# after the hook exits 0: a label on the ConfigMap the chart installed, and a
# ConfigMap of its own (not part of the release) holding the message.
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  echo '{"configVersion":"v1","afterHelm":20}'
  exit 0
fi
ns=$ADDON_OPERATOR_NAMESPACE
message=$(jq -r '.greeter.message' "$VALUES_PATH")
cat > "$KUBERNETES_PATCH_PATH" <<YAML
operation: MergePatch
kind: ConfigMap
namespace: $ns
name: greeter
mergePatch:
  metadata:
    labels:
      greeter.example.com/published: "true"
---
operation: CreateOrUpdate
object:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: greeter-published
    namespace: $ns
  data:
    message: $(jq -n --arg m "$message" '$m')
YAML
