package settings

// moduleConfigTable is the switch of the ModuleConfig objects as a second
// source of configuration, beside the ConfigMap.
func moduleConfigTable() []setting {
	return []setting{
		{"module-configs", "true", "read ModuleConfig objects (moduleconfigs.addon-operator.io; the CRD is created when missing): a module with one takes enabled, settings and maintenance from it over its ConfigMap keys; false: the ConfigMap alone", []string{"ADDON_OPERATOR_MODULE_CONFIGS"}},
	}
}
