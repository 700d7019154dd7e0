package main

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
	"github.com/addon-actors/addon-operator/moduleconfig"
)

// readPlanFile reads `plan -f FILE`: a ConfigMap manifest, ModuleConfig
// manifests, or both in one stream. Without a ConfigMap, the plan lays the
// ModuleConfigs over the live ConfigMap; an empty ConfigMap's data is
// empty, never "the live one".
func readPlanFile(file string, req *whatif.Request) error {
	raw, err := readManifestFile(file)
	if err != nil {
		return fmt.Errorf("-f %s: %w", file, err)
	}
	m, err := moduleconfig.Parse("-f "+file, raw)
	if err != nil {
		return err
	}
	for _, doc := range m.Others {
		if doc.Kind != "ConfigMap" || req.Data != nil {
			return fmt.Errorf("-f %s: kind %q: want a ConfigMap manifest and/or ModuleConfigs (object %d)", file, doc.Kind, doc.Index)
		}
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if err := json.Unmarshal(doc.JSON, &cm); err != nil {
			return fmt.Errorf("-f %s: object %d: not a ConfigMap manifest: %w", file, doc.Index, err)
		}
		req.Data = cm.Data
		if req.Data == nil {
			req.Data = map[string]string{}
		}
	}
	if req.Data == nil && len(m.ModuleConfigs) == 0 {
		return fmt.Errorf("-f %s: want a ConfigMap or ModuleConfig manifest", file)
	}
	req.ModuleConfigs = m.ModuleConfigs
	return nil
}
