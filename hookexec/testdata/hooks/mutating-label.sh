#!/usr/bin/env bash
# A mutating webhook hook in shell-operator's style: labels every new
# ConfigMap with the user who made it, by a JSON patch in base64 (on one
# line: a wrapped value would break the JSON).
set -euo pipefail
if [[ ${1:-} == --config ]]; then
  cat <<'CONFIG'
{"configVersion":"v1",
 "kubernetesMutating":[{"name":"created-by.example.com",
   "namespace":{"labelSelector":{"matchLabels":{"mutate":"yes"}}},
   "rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]}]}
CONFIG
  exit 0
fi
user=$(jq -r '.[0].review.request.userInfo.username' "$BINDING_CONTEXT_PATH")
patch=$(jq -nc --arg user "$user" '[{op: "add", path: "/metadata/labels", value: {"created-by": $user}}]' | base64 -w 0)
echo "{\"allowed\":true,\"warnings\":[\"labelled by a hook\"],\"patch\":\"$patch\"}" > "$ADMISSION_RESPONSE_PATH"
