#!/usr/bin/env bash
# Writes $PATCH_TEXT, $CONFIG_PATCH_TEXT and $METRICS_TEXT to the output files.
printf '%s' "${PATCH_TEXT:-}" > "$VALUES_JSON_PATCH_PATH"
printf '%s' "${CONFIG_PATCH_TEXT:-}" > "$CONFIG_VALUES_JSON_PATCH_PATH"
printf '%s' "${METRICS_TEXT:-}" > "$METRICS_PATH"
