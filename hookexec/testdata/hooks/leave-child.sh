#!/usr/bin/env bash
# Exits at once, leaving a background child that holds stdout open.
sleep 1000 &
echo $! > "$OUT_DIR/child.pid"
exit 0
