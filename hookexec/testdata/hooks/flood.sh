#!/usr/bin/env bash
# Floods both streams with short lines: FLOOD_BYTES bytes of "y" lines on
# stdout and as many of "e" lines on stderr.
yes y | head -c "${FLOOD_BYTES:-50000000}"
yes e | head -c "${FLOOD_BYTES:-50000000}" >&2
