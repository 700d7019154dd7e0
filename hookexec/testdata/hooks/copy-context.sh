#!/usr/bin/env bash
# Copies the binding context file it was given to a new file in $OUT_DIR.
set -eu
cat "$BINDING_CONTEXT_PATH" > "$(mktemp "$OUT_DIR/context-XXXXXX")"
