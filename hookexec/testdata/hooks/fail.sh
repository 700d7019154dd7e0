#!/usr/bin/env bash
# Writes 30 numbered lines to stderr and exits 3.
for i in $(seq 1 30); do echo "error line $i" >&2; done
echo '[{"op":"add","path":"/global/x","value":1}]' > "$VALUES_JSON_PATCH_PATH"
exit 3
