#!/usr/bin/env bash
# A conversion webhook hook in shell-operator's style: CronTab v1 to v2
# renames spec.cron to spec.cronSpec; any other step fails with a message.
set -euo pipefail
if [[ ${1:-} == --config ]]; then
  cat <<'CONFIG'
configVersion: v1
kubernetesCustomResourceConversion:
- name: crontabs
  crdName: crontabs.stable.example.com
  conversions:
  - fromVersion: stable.example.com/v1
    toVersion: stable.example.com/v2
CONFIG
  exit 0
fi
step=$(jq -r '.[0] | "\(.fromVersion) \(.toVersion)"' "$BINDING_CONTEXT_PATH")
if [[ $step != "stable.example.com/v1 stable.example.com/v2" ]]; then
  jq -nc --arg step "$step" '{failedMessage: "no conversion \($step)"}' > "$CONVERSION_RESPONSE_PATH"
  exit 0
fi
jq -c '.[0].review.request.objects
  | {convertedObjects: map(.apiVersion = "stable.example.com/v2" | .spec.cronSpec = .spec.cron | del(.spec.cron))}' \
  "$BINDING_CONTEXT_PATH" > "$CONVERSION_RESPONSE_PATH"
