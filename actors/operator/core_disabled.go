package operator

import (
	"fmt"
	"strings"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// Why a module is disabled: the reason label of an uninstall in the
// destructive-actions metric (with worker.ActionUninstall), and of a purge.
const (
	CauseModulesValues = "modules-values-yaml" // $MODULES_DIR/values.yaml
	CauseModuleValues  = "module-values-yaml"  // the module's values.yaml
	CauseConfigMap     = "configmap"
	CauseGlobalHook    = "global-hook"    // a flag a global hook set
	CauseEnabledScript = "enabled-script" // the module's enabled script said false
	CauseNotEnabled    = "not-enabled"    // no layer enables it any more
	CauseModuleDirGone = "module-dir-gone"
	CauseRequirements  = "requirements" // module.yaml's requirements are not met
)

// unmetText is the reason of a module its unmet requirements disabled.
func unmetText(unmet []string) string {
	return "turned off because of unmet requirements: " + strings.Join(unmet, "; ")
}

// disabledBy says why a module is disabled, as a bounded cause and as a
// sentence naming the key: the highest enabled layer with a say (they are
// ordered low to high as values.EnabledByLayers reads them), else its
// enabled script when the layers enabled it.
func disabledBy(def layout.Definition, config values.Sections, dynamic map[string]bool, byScript bool) (string, string) {
	key, flag := def.Names.ValuesKey, def.Names.EnabledKey
	if byScript {
		return CauseEnabledScript, "disabled by its enabled script"
	}
	layers := []struct {
		say   map[string]bool
		cause string
		text  string
	}{
		{def.Common.Enabled, CauseModulesValues, fmt.Sprintf("disabled in the modules dir's values.yaml key %s", flag)},
		{def.Own.Enabled, CauseModuleValues, fmt.Sprintf("disabled in the module's values.yaml key %s", flag)},
		{config.Enabled, CauseConfigMap, configMapText(config, key, flag)},
		{dynamic, CauseGlobalHook, fmt.Sprintf("disabled by a global hook (%s: false)", flag)},
	}
	for i := len(layers) - 1; i >= 0; i-- {
		if enabled, ok := layers[i].say[key]; ok {
			if !enabled {
				return layers[i].cause, layers[i].text
			}
			return CauseNotEnabled, fmt.Sprintf("not enabled by discovery although %s is true", flag)
		}
	}
	return CauseNotEnabled, fmt.Sprintf("no longer enabled: %s is true in no values.yaml, ConfigMap key or global hook", flag)
}

// configMapText names the ConfigMap key that disables the module: its
// section set to "false" (which wins over an xEnabled key), or its xEnabled
// key.
func configMapText(config values.Sections, key, flag string) string {
	if config.FalseSections[key] {
		return fmt.Sprintf("disabled in ConfigMap key %s (\"false\")", key)
	}
	return fmt.Sprintf("disabled in ConfigMap key %s", flag)
}
