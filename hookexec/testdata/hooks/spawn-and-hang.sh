#!/usr/bin/env bash
# Starts a child and a grandchild, records the pids, says "ready" and hangs.
sleep 1000 &
echo $! > "$OUT_DIR/child.pid"
bash -c 'sleep 1000 & echo $! > "$OUT_DIR/grandchild.pid"; wait' &
echo $! > "$OUT_DIR/subshell.pid"
echo $$ > "$OUT_DIR/hook.pid"
while [[ ! -s "$OUT_DIR/grandchild.pid" ]]; do :; done
echo ready
wait
