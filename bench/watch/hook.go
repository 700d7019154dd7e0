package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// hookConfig is the global hook's --config: one kubernetes binding on the
// labelled ConfigMaps of ns.
func hookConfig(ns string, group, includeSelf bool) (string, error) {
	b := map[string]any{
		"name": "cms", "apiVersion": "v1", "kind": "ConfigMap",
		"namespace":               map[string]any{"nameSelector": map[string]any{"matchNames": []string{ns}}},
		"labelSelector":           map[string]any{"matchExpressions": []any{map[string]any{"key": "phase", "operator": "Exists"}}},
		"jqFilter":                ".metadata.labels.phase",
		"keepFullObjectsInMemory": false,
	}
	if group {
		b["group"] = "g"
	}
	if includeSelf {
		b["includeSnapshotsFrom"] = []string{"cms"}
	}
	data, err := json.Marshal(map[string]any{"configVersion": "v1", "kubernetes": []any{b}})
	return string(data), err
}

// writeHook writes the global hook into dir: each run appends a line
// "CONTEXTS SEEN" to out, SEEN being how many lines of the binding context
// hold the sentinel phase (its JSON is one line: 0 or 1).
func writeHook(dir, out, config, sentinel string) error {
	script := fmt.Sprintf(`#!/usr/bin/env bash
if [[ ${1:-} == --config ]]; then echo '%s'; exit 0; fi
echo "$(jq length "$BINDING_CONTEXT_PATH") $(grep -c '"%s"' "$BINDING_CONTEXT_PATH")" >> %q
`, config, sentinel, out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "watch"), []byte(script), 0o755)
}

// hookLog is what the hook wrote so far: its runs and whether one saw
// the sentinel.
type hookLog struct {
	runs     int
	contexts int
	seen     bool
}

func readHookLog(path string) hookLog {
	data, _ := os.ReadFile(path) // not there yet: no runs
	return parseHookLog(string(data))
}

func parseHookLog(text string) hookLog {
	var l hookLog
	for _, line := range strings.Split(text, "\n") {
		var n, seen int
		if _, err := fmt.Sscanf(line, "%d %d", &n, &seen); err != nil {
			continue
		}
		l.runs++
		l.contexts += n
		l.seen = l.seen || seen > 0
	}
	return l
}
