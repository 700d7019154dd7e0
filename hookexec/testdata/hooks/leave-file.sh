#!/usr/bin/env bash
# Leaves a file of its own and a directory with a file in its run directory.
dir=$(dirname "$VALUES_PATH")
echo extra > "$dir/extra"
mkdir "$dir/sub" && echo nested > "$dir/sub/file"
