package settings

// hookConfigTable is the setting of how many modules configure their
// hooks (run them with --config) at once.
func hookConfigTable() []setting {
	return []setting{
		{"hook-config-concurrency", "0", "modules whose hooks run with --config at once, at start-up and for module dirs added later; 0: twice GOMAXPROCS", []string{"ADDON_OPERATOR_HOOK_CONFIG_CONCURRENCY"}},
	}
}
