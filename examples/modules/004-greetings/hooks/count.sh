#!/usr/bin/env bash
# Watches the Greetings of the module's own CRD (crds/greetings.yaml) from
# the first run: prints how many there are, and who was greeted.
set -euo pipefail
if [[ ${1:-} == "--config" ]]; then
  cat <<'CONFIG'
{"configVersion":"v1","kubernetes":[{"name":"greetings","apiVersion":"examples.addon-operator.io/v1","kind":"Greeting",
  "jqFilter":".spec.to"}]}
CONFIG
  exit 0
fi
jq -r '.[] | "greetings \(.type) \(.watchEvent // "") \(.objects // [] | length) \(.filterResult // "")"' "$BINDING_CONTEXT_PATH"
