#!/usr/bin/env bash
# Prints megabytes: one 5 MB line on stdout, then 100000 short lines on each stream.
head -c 5000000 /dev/zero | tr '\0' 'x'
echo
for s in 1 2; do
  seq 1 100000 | sed 's/^/line /' >&$s
done
echo "last stderr line" >&2
