#!/usr/bin/env bash
# Writes $PATCH_TEXT, $CONFIG_PATCH_TEXT $METRICS_TEXT and $OBJECT_PATCH_TEXT to the output files.
printf '%s' "${PATCH_TEXT:-}" > "$VALUES_JSON_PATCH_PATH"
printf '%s' "${CONFIG_PATCH_TEXT:-}" > "$CONFIG_VALUES_JSON_PATCH_PATH"
printf '%s' "${METRICS_TEXT:-}" > "$METRICS_PATH"
printf '%s' "${OBJECT_PATCH_TEXT:-}" > "$KUBERNETES_PATCH_PATH"
