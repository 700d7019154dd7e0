#!/usr/bin/env bash
# Blocks until the test writes a line to the fifo $FIFO.
read -r _ < "$FIFO"
