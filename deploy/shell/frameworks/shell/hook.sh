#!/usr/bin/env bash
# Placeholder: replaced by the shell library (issue 29). It exists so that
# deploy/Dockerfile can copy it into the image.
