#!/usr/bin/env bash
# Opens its values file to everyone: a directory left so is not reused.
set -eu
chmod 0644 "$VALUES_PATH"
echo "$(dirname "$VALUES_PATH")" >> "$OUT_DIR/dirs"
