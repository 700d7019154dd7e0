#!/usr/bin/env bash
# Puts a symlink to $OUT_DIR/target in the place of its values file and
# of its values patch file.
set -eu
ln -sf "$OUT_DIR/target" "$VALUES_PATH"
ln -sf "$OUT_DIR/target" "$VALUES_JSON_PATCH_PATH"
