package settings_test

import (
	"io"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
)

// The ModuleConfig webhook listens on a port of its own, takes the hooks'
// admission certificate and Service where it names none, and is Ignore
// unless told Fail.
func TestModuleConfigWebhookSettings(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops", "VALIDATING_WEBHOOK_SERVER_CERT", "/v/tls.crt",
		"VALIDATING_WEBHOOK_SERVICE_NAME", "ao-validating", "VALIDATING_WEBHOOK_CLIENT_CA", "/client.crt")
	m := s.ModuleConfigWebhook
	if m.Server.ListenPort != settings.DefaultModuleConfigWebhookPort || m.Server.CertFile != "/v/tls.crt" ||
		m.Server.KeyFile != "/validating-certs/tls.key" || m.Server.ServiceName != "ao-validating" || m.ServicePort != 9682 ||
		m.FailurePolicy != "Ignore" || m.URL != "" || len(m.Server.ClientCAFiles) != 1 || m.Server.MaxConnections != 1024 {
		t.Fatalf("defaults %+v", m)
	}
	s = load(t, []string{"--moduleconfig-webhook-listen-port", "9443"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVER_CERT", "/m/tls.crt", "ADDON_OPERATOR_MODULECONFIG_WEBHOOK_FAILURE_POLICY", "Fail",
		"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_URL", "https://127.0.0.1:9443/")
	m = s.ModuleConfigWebhook
	if m.Server.ListenPort != 9443 || m.Server.CertFile != "/m/tls.crt" || m.FailurePolicy != "Fail" || m.URL != "https://127.0.0.1:9443" {
		t.Fatalf("settings %+v", m)
	}
	for _, bad := range [][2]string{{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_FAILURE_POLICY", "ignore"},
		{"ADDON_OPERATOR_MODULECONFIG_WEBHOOK_LISTEN_PORT", "70000"}} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", bad[0], bad[1]), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%s=%s: err %v, want one naming it", bad[0], bad[1], err)
		}
	}
}
