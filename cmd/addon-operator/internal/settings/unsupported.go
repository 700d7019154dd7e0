package settings

import (
	"slices"
	"strings"
)

// Unsupported is a setting of the original addon-operator that this
// operator does not read, set in the environment: start-up warns about it,
// so that a Deployment written for the original does not silently lose
// what it asked for.
type Unsupported struct {
	Name, Value string
	// Why says what this operator does instead.
	Why string
}

// unsupportedVariables are the original's settings (UPSTREAM.md §9) that
// this operator does not read, with what it does instead.
func unsupportedVariables() map[string]string {
	return map[string]string{
		"ADDON_OPERATOR_SHELL_CHROOT_DIR": "hooks are not run in a chroot; they run with the operator's root filesystem",
		"ADDON_OPERATOR_STRICT_CHECK_VALUES_MODE_ENABLED": "values are checked against the modules' schemas as they are written " +
			"(additionalProperties decides whether an unknown key is refused)",
		"ADDON_OPERATOR_APPLIED_MODULE_EXTENDERS":     "module extenders are not supported; module.yaml requirements are",
		"ADDON_OPERATOR_ADMISSION_SERVER_ENABLED":     "the original's admission server is not served; hooks' webhooks use the VALIDATING_WEBHOOK_* and CONVERSION_WEBHOOK_* settings",
		"ADDON_OPERATOR_ADMISSION_SERVER_LISTEN_PORT": "the original's admission server is not served",
		"ADDON_OPERATOR_ADMISSION_SERVER_CERTS_DIR":   "the original's admission server is not served",
		"HELM_MONITOR_KUBE_CLIENT_QPS":                "release checks use the operator's client (KUBE_CLIENT_QPS)",
		"HELM_MONITOR_KUBE_CLIENT_BURST":              "release checks use the operator's client (KUBE_CLIENT_BURST)",
		"DEBUG_HTTP_SERVER_ADDR":                      "the debug API is served on DEBUG_UNIX_SOCKET only",
		"DEBUG_KUBERNETES_API":                        "Kubernetes API calls are not logged",
		"LOG_PROXY_HOOK_JSON":                         "a hook's output line that is a JSON object is always logged with its keys as fields",
		"USE_NELM":                                    "helm is used as a library (helm3lib), never nelm",
		"HELM_DRIVER":                                 "releases are stored in Secrets, helm's default driver",
		"NELM_DEPENDENCY_GRAPH_ENABLED":               "helm is used as a library (helm3lib), never nelm",
	}
}

// unsupported lists the unsupported settings that are set (non-empty), by
// name.
func unsupported(lookup func(string) (string, bool)) []Unsupported {
	var out []Unsupported
	for name, why := range unsupportedVariables() {
		if v, ok := lookup(name); ok && v != "" {
			out = append(out, Unsupported{Name: name, Value: v, Why: why})
		}
	}
	slices.SortFunc(out, func(a, b Unsupported) int { return strings.Compare(a.Name, b.Name) })
	return out
}
