#!/usr/bin/env bash
# Records the webhook response variables, and what their files hold when
# the hook starts, in $OUT_DIR/paths; writes $RESPONSE_TEXT to
# $VALIDATING_RESPONSE_PATH when it is set and exits $EXIT_CODE.
set -eu
{
  echo "validating=${VALIDATING_RESPONSE_PATH:-}"
  echo "admission=${ADMISSION_RESPONSE_PATH:-}"
  echo "conversion=${CONVERSION_RESPONSE_PATH:-}"
  echo "dir=$(dirname "$BINDING_CONTEXT_PATH")"
  for f in "${VALIDATING_RESPONSE_PATH:-}" "${CONVERSION_RESPONSE_PATH:-}"; do
    if [[ -n $f && -f $f && ! -s $f ]]; then echo "empty $(basename "$f")"; fi
  done
} > "$OUT_DIR/paths"
if [[ -n ${RESPONSE_TEXT:-} ]]; then printf '%s' "$RESPONSE_TEXT" > "$VALIDATING_RESPONSE_PATH"; fi
exit "${EXIT_CODE:-0}"
