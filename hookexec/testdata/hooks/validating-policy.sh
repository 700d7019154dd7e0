#!/usr/bin/env bash
# A validating webhook hook in shell-operator's style: Pods may only use
# images from registry.example.com.
set -euo pipefail
if [[ ${1:-} == --config ]]; then
  cat <<'CONFIG'
configVersion: v1
kubernetesValidating:
- name: private-repo-policy.example.com
  rules:
  - apiGroups: [""]
    apiVersions: ["v1"]
    operations: ["CREATE", "UPDATE"]
    resources: ["pods"]
    scope: "Namespaced"
CONFIG
  exit 0
fi
type=$(jq -r '.[0].type' "$BINDING_CONTEXT_PATH")
if [[ $type != Validating ]]; then
  echo "unexpected binding context type $type" >&2
  exit 1
fi
foreign=$(jq -r '[.[0].review.request.object.spec.containers[].image
  | select(startswith("registry.example.com/") | not)] | first // ""' "$BINDING_CONTEXT_PATH")
if [[ -n $foreign ]]; then
  jq -nc --arg image "$foreign" '{allowed: false, message: "image \($image) is not from registry.example.com"}' > "$VALIDATING_RESPONSE_PATH"
else
  echo '{"allowed":true}' > "$VALIDATING_RESPONSE_PATH"
fi
