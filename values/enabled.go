package values

// EnabledByLayers tells whether the module with values key key is enabled by
// its layers, given low to high: $MODULES_DIR/values.yaml, the module's
// values.yaml, the ConfigMap (see [Sections.Enabled]), and the flags global
// hooks set in memory ([Scope.DynamicEnabled]). The highest layer with a say
// wins; with no say anywhere the module is disabled. A module enabled here
// still runs its enabled script, which has the last word.
func EnabledByLayers(key string, layers ...map[string]bool) bool {
	enabled := false
	for _, layer := range layers {
		if v, ok := layer[key]; ok {
			enabled = v
		}
	}
	return enabled
}

// MergeEnabled merges enabled flags, low to high, into a new map.
func MergeEnabled(layers ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, layer := range layers {
		for k, v := range layer {
			out[k] = v
		}
	}
	return out
}
