#!/usr/bin/env bash
# Sets demo.replicas to the number of binding contexts it was given.
set -euo pipefail
n=$(jq length "$BINDING_CONTEXT_PATH")
jq -nc --argjson n "$n" '[{"op":"add","path":"/demo/replicas","value":$n}]' > "$VALUES_JSON_PATCH_PATH"
