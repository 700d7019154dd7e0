package settings_test

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// The webhook servers' settings default to shell-operator's, read its
// variables, and take the URL form and the concurrency of our own.
func TestWebhookSettings(t *testing.T) {
	s := load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops")
	adm, conv := server.DefaultAdmission(), server.DefaultConversion()
	adm.MaxConnections, conv.MaxConnections = 1024, 1024
	want := settings.Webhooks{Admission: adm, Conversion: conv, Concurrency: 4, MaxInFlight: 256, MaxInFlightBytes: 64 << 20,
		AdmissionMaxBytes: 8 << 20, ConversionMaxBytes: 32 << 20}
	if !reflect.DeepEqual(s.Webhooks, want) {
		t.Fatalf("defaults\n got %+v\nwant %+v", s.Webhooks, want)
	}
	s = load(t, []string{"--webhook-concurrency", "2"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"VALIDATING_WEBHOOK_CONFIGURATION_NAME", "ops-hooks", "VALIDATING_WEBHOOK_LISTEN_PORT", "8443",
		"VALIDATING_WEBHOOK_CLIENT_CA", "/a.crt, /b.crt", "CONVERSION_WEBHOOK_SERVER_CERT", "/c/tls.crt",
		"ADDON_OPERATOR_WEBHOOK_URL", "https://127.0.0.1:8443/", "ADDON_OPERATOR_WEBHOOK_CONCURRENCY", "9")
	w := s.Webhooks
	if w.Admission.ConfigurationName != "ops-hooks" || w.Admission.ListenPort != 8443 ||
		!reflect.DeepEqual(w.Admission.ClientCAFiles, []string{"/a.crt", "/b.crt"}) || w.Conversion.CertFile != "/c/tls.crt" ||
		w.AdmissionURL != "https://127.0.0.1:8443" || w.ConversionURL != "" || w.Concurrency != 2 {
		t.Fatalf("settings %+v", w)
	}
	for _, bad := range [][2]string{{"ADDON_OPERATOR_WEBHOOK_CONCURRENCY", "0"}, {"CONVERSION_WEBHOOK_LISTEN_PORT", "70000"},
		{"ADDON_OPERATOR_WEBHOOK_HTTP2", "yes please"}, {"ADDON_OPERATOR_WEBHOOK_MAX_IN_FLIGHT", "0"},
		{"ADDON_OPERATOR_WEBHOOK_ADMISSION_MAX_BYTES", "8MiB"}, {"ADDON_OPERATOR_WEBHOOK_MAX_CONNECTIONS", "-1"}} {
		_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", bad[0], bad[1]), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%s=%s: err %v, want one naming it", bad[0], bad[1], err)
		}
	}
}

// The servers' hardening settings: HTTP/2 (off by default), the bound on
// reviews in flight, connections, and the body caps, for both servers.
func TestWebhookLimitSettings(t *testing.T) {
	s := load(t, []string{"--webhook-http2=true", "--webhook-max-in-flight", "5"}, "ADDON_OPERATOR_NAMESPACE", "ops",
		"ADDON_OPERATOR_WEBHOOK_MAX_CONNECTIONS", "64", "ADDON_OPERATOR_WEBHOOK_ADMISSION_MAX_BYTES", "1000",
		"ADDON_OPERATOR_WEBHOOK_CONVERSION_MAX_BYTES", "2000", "ADDON_OPERATOR_WEBHOOK_MAX_IN_FLIGHT_BYTES", "4000")
	w := s.Webhooks
	if !w.Admission.HTTP2 || !w.Conversion.HTTP2 || w.Admission.MaxConnections != 64 || w.Conversion.MaxConnections != 64 ||
		w.MaxInFlight != 5 || w.MaxInFlightBytes != 4000 || w.AdmissionMaxBytes != 1000 || w.ConversionMaxBytes != 2000 {
		t.Fatalf("settings %+v", w)
	}
	s = load(t, nil, "ADDON_OPERATOR_NAMESPACE", "ops", "ADDON_OPERATOR_WEBHOOK_HTTP2", "true")
	if !s.Webhooks.Admission.HTTP2 {
		t.Fatalf("ADDON_OPERATOR_WEBHOOK_HTTP2=true: %+v", s.Webhooks.Admission)
	}
}

// shell-operator's --validating-webhook-client-ca and
// --conversion-webhook-client-ca are repeatable (spec/WEBHOOKS.md §1): each
// use adds a CA, and the flags win over the comma-separated variables.
func TestWebhookClientCAFlagsRepeat(t *testing.T) {
	s, err := settings.Load([]string{
		"--validating-webhook-client-ca", "/a.crt", "--validating-webhook-client-ca", "/b.crt,/c.crt",
		"--conversion-webhook-client-ca=/d.crt", "--conversion-webhook-client-ca=/e.crt",
	}, env("ADDON_OPERATOR_NAMESPACE", "ops", "VALIDATING_WEBHOOK_CLIENT_CA", "/env.crt"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Webhooks.Admission.ClientCAFiles, []string{"/a.crt", "/b.crt", "/c.crt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("admission client CAs %v, want %v", got, want)
	}
	if got, want := s.Webhooks.Conversion.ClientCAFiles, []string{"/d.crt", "/e.crt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("conversion client CAs %v, want %v", got, want)
	}
}

// shell-operator takes VALIDATING_WEBHOOK_FAILURE_POLICY
// (--validating-webhook-failure-policy), Fail or Ignore, default Fail,
// and uses it nowhere: a binding's failurePolicy defaults to Fail
// (spec/WEBHOOKS.md §1). A Deployment that sets it must start.
func TestWebhookFailurePolicySetting(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  []string
	}{
		{nil, nil},
		{nil, []string{"VALIDATING_WEBHOOK_FAILURE_POLICY", "Ignore"}},
		{[]string{"--validating-webhook-failure-policy", "Fail"}, []string{"VALIDATING_WEBHOOK_FAILURE_POLICY", "Ignore"}},
	} {
		if _, err := settings.Load(tc.args, env(append([]string{"ADDON_OPERATOR_NAMESPACE", "ops"}, tc.env...)...), io.Discard); err != nil {
			t.Errorf("%v %v: %v", tc.args, tc.env, err)
		}
	}
	_, err := settings.Load(nil, env("ADDON_OPERATOR_NAMESPACE", "ops", "VALIDATING_WEBHOOK_FAILURE_POLICY", "Never"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "VALIDATING_WEBHOOK_FAILURE_POLICY") {
		t.Errorf("Never: err %v, want one naming VALIDATING_WEBHOOK_FAILURE_POLICY", err)
	}
}

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
