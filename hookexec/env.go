package hookexec

import (
	"strings"
)

// The variables the operator sets for a hook run (DESIGN §2).
const (
	EnvBindingContextPath        = "BINDING_CONTEXT_PATH"
	EnvValuesPath                = "VALUES_PATH"
	EnvConfigValuesPath          = "CONFIG_VALUES_PATH"
	EnvValuesJSONPatchPath       = "VALUES_JSON_PATCH_PATH"
	EnvConfigValuesJSONPatchPath = "CONFIG_VALUES_JSON_PATCH_PATH"
	EnvMetricsPath               = "METRICS_PATH"
	EnvKubernetesPatchPath       = "KUBERNETES_PATCH_PATH"
	EnvWorkingDir                = "WORKING_DIR"
	EnvModuleEnabledResult       = "MODULE_ENABLED_RESULT"
	// The webhook response files (Request.WebhookResponses):
	// VALIDATING_RESPONSE_PATH and ADMISSION_RESPONSE_PATH name one file,
	// the admission response of a validating or mutating run.
	EnvValidatingResponsePath = "VALIDATING_RESPONSE_PATH"
	EnvAdmissionResponsePath  = "ADMISSION_RESPONSE_PATH"
	EnvConversionResponsePath = "CONVERSION_RESPONSE_PATH"
)

// EnvAllowlist restricts which of the operator's variables a hook inherits
// (HOOK_ENV_ALLOWLIST). The zero value allows everything.
type EnvAllowlist struct {
	set      bool
	names    map[string]bool
	prefixes []string
}

// ParseEnvAllowlist reads HOOK_ENV_ALLOWLIST: comma-separated variable names,
// where a name ending in `*` is a prefix (`KUBE_*`). An empty string allows
// everything. PATH is always allowed: without it `#!/usr/bin/env bash`, the
// first line of most hooks, cannot start.
func ParseEnvAllowlist(s string) EnvAllowlist {
	if strings.TrimSpace(s) == "" {
		return EnvAllowlist{}
	}
	a := EnvAllowlist{set: true, names: map[string]bool{"PATH": true}}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case strings.HasSuffix(item, "*"):
			a.prefixes = append(a.prefixes, strings.TrimSuffix(item, "*"))
		default:
			a.names[item] = true
		}
	}
	return a
}

// Allows says whether a hook inherits the variable name.
func (a EnvAllowlist) Allows(name string) bool {
	if !a.set || a.names[name] {
		return true
	}
	for _, p := range a.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// hookEnv is the inherited environment (already filtered by the allow-list)
// plus the run's own NAME=value variables, which win over inherited ones.
func hookEnv(inherited []string, own ...string) []string {
	env := make([]string, 0, len(inherited)+len(own))
	for _, kv := range inherited {
		if !overridden(kv, own) {
			env = append(env, kv)
		}
	}
	return append(env, own...)
}

func overridden(kv string, own []string) bool {
	name, _, _ := strings.Cut(kv, "=")
	for _, o := range own {
		if len(o) > len(name) && o[len(name)] == '=' && o[:len(name)] == name {
			return true
		}
	}
	return false
}

// filterEnv keeps the variables of environ that the allow-list allows.
func filterEnv(environ []string, allow EnvAllowlist) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name != "" && allow.Allows(name) {
			out = append(out, kv)
		}
	}
	return out
}
