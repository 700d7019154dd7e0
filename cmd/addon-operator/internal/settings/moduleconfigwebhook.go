package settings

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/addon-actors/addon-operator/webhook/server"
)

// DefaultModuleConfigWebhookPort is the ModuleConfig admission server's
// port: its own, beside the hooks' admission (9680) and conversion (9681)
// servers.
const DefaultModuleConfigWebhookPort = 9682

// ModuleConfigWebhook are the settings of the ModuleConfig validating
// webhook's server and registration (ADDON_OPERATOR_MODULECONFIG_WEBHOOK_*).
// Its certificate defaults to the hooks' admission server's, and its
// Service to theirs (another port of it), so that a chart with webhooks
// enabled serves it without more settings.
type ModuleConfigWebhook struct {
	Server server.Settings
	// URL, when set, is the base URL the apiserver calls instead of the
	// Service (a local run, a test).
	URL string
	// ServicePort is the Service's port that reaches the server.
	ServicePort int
	// FailurePolicy is Ignore (the default: edits never wait for the pod)
	// or Fail.
	FailurePolicy string
}

func moduleConfigWebhookTable() []setting {
	adm := server.DefaultAdmission()
	port := strconv.Itoa(DefaultModuleConfigWebhookPort)
	return []setting{
		{"moduleconfig-webhook-listen-port", port, "port of the ModuleConfig admission server (its own, beside the hooks' webhook servers)", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_PORT"}},
		{"moduleconfig-webhook-listen-address", adm.ListenAddress, "address of the ModuleConfig admission server", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_ADDRESS"}},
		{"moduleconfig-webhook-server-cert", "", "ModuleConfig admission server certificate; empty: the hooks' admission server's (VALIDATING_WEBHOOK_SERVER_CERT). Missing: the webhook is not served, only the read side validates", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVER_CERT"}},
		{"moduleconfig-webhook-server-key", "", "its key; empty: VALIDATING_WEBHOOK_SERVER_KEY's", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVER_KEY"}},
		{"moduleconfig-webhook-ca", "", "CA of its certificate (the configuration's caBundle); empty: VALIDATING_WEBHOOK_CA's", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_CA"}},
		{"moduleconfig-webhook-service-name", "", "Service in front of the ModuleConfig admission server; empty: VALIDATING_WEBHOOK_SERVICE_NAME's", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVICE_NAME"}},
		{"moduleconfig-webhook-service-port", port, "the Service's port to the ModuleConfig admission server", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVICE_PORT"}},
		{"moduleconfig-webhook-url", "", "base URL the apiserver calls for ModuleConfig reviews (https://127.0.0.1:9682) instead of the Service; empty: the Service", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_URL"}},
		{"moduleconfig-webhook-failure-policy", "Ignore", "Ignore (config edits never depend on the operator being up; the read side still validates) or Fail (an edit is refused while no operator answers)", []string{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_FAILURE_POLICY"}},
	}
}

// moduleConfigWebhook reads moduleConfigWebhookTable over the hooks'
// admission server's settings (hooks), whose certificate, Service, client
// CAs (mTLS), bounds and configuration name prefix it takes where it sets
// none.
func (c *converter) moduleConfigWebhook(v map[string]string, hooks server.Settings) ModuleConfigWebhook {
	s := hooks
	s.ListenPort, s.ListenAddress = c.port(v, "moduleconfig-webhook-listen-port"), v["moduleconfig-webhook-listen-address"]
	s.CertFile = cmp.Or(v["moduleconfig-webhook-server-cert"], hooks.CertFile)
	s.KeyFile = cmp.Or(v["moduleconfig-webhook-server-key"], hooks.KeyFile)
	s.CAFile = cmp.Or(v["moduleconfig-webhook-ca"], hooks.CAFile)
	s.ServiceName = cmp.Or(v["moduleconfig-webhook-service-name"], hooks.ServiceName)
	policy := v["moduleconfig-webhook-failure-policy"]
	c.oneOf(policy, "moduleconfig-webhook-failure-policy", "Ignore", "Fail")
	return ModuleConfigWebhook{Server: s, URL: strings.TrimSuffix(v["moduleconfig-webhook-url"], "/"),
		ServicePort: c.port(v, "moduleconfig-webhook-service-port"), FailurePolicy: policy}
}
