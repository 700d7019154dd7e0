package settings

import (
	"strconv"
	"strings"

	"github.com/addon-actors/addon-operator/webhook/server"
)

// Webhooks are the settings of the servers of hooks' webhook bindings,
// under shell-operator's names (VALIDATING_WEBHOOK_*, CONVERSION_WEBHOOK_*)
// and defaults.
type Webhooks struct {
	Admission, Conversion server.Settings
	// AdmissionURL and ConversionURL, when set, are the base URLs the
	// apiserver calls instead of the Services (no Service routes to the
	// operator: a local run, a test).
	AdmissionURL, ConversionURL string
	// Concurrency is how many reviews one hook answers at once.
	Concurrency int
	// MaxInFlight bounds the reviews read or answered at once, all hooks
	// and both servers together; MaxInFlightBytes their bodies.
	MaxInFlight      int
	MaxInFlightBytes int64
	// AdmissionMaxBytes and ConversionMaxBytes cap a review's body.
	AdmissionMaxBytes, ConversionMaxBytes int64
}

// webhookTable are the webhook settings; shell-operator's flags and
// variables.
func webhookTable() []setting {
	adm, conv := server.DefaultAdmission(), server.DefaultConversion()
	return []setting{
		{"validating-webhook-configuration-name", adm.ConfigurationName, "prefix of the names of the Validating- and MutatingWebhookConfigurations (<prefix>-<module>, <prefix>-global)", []string{"VALIDATING_WEBHOOK_CONFIGURATION_NAME"}},
		{"validating-webhook-service-name", adm.ServiceName, "Service in front of the admission webhook server (port 443), in the operator's namespace", []string{"VALIDATING_WEBHOOK_SERVICE_NAME"}},
		{"validating-webhook-server-cert", adm.CertFile, "admission server certificate (re-read when it changes)", []string{"VALIDATING_WEBHOOK_SERVER_CERT"}},
		{"validating-webhook-server-key", adm.KeyFile, "admission server key", []string{"VALIDATING_WEBHOOK_SERVER_KEY"}},
		{"validating-webhook-ca", adm.CAFile, "CA of the admission server certificate (the configurations' caBundle)", []string{"VALIDATING_WEBHOOK_CA"}},
		{"validating-webhook-client-ca", "", "CAs of client certificates, comma-separated (the flag may be repeated); set: clients must present one (mTLS)", []string{"VALIDATING_WEBHOOK_CLIENT_CA"}},
		{"validating-webhook-failure-policy", "Fail", "Fail or Ignore; taken as shell-operator takes it, and unused as there: a binding's failurePolicy defaults to Fail", []string{"VALIDATING_WEBHOOK_FAILURE_POLICY"}},
		{"validating-webhook-listen-port", "9680", "admission server port", []string{"VALIDATING_WEBHOOK_LISTEN_PORT"}},
		{"validating-webhook-listen-address", adm.ListenAddress, "admission server address", []string{"VALIDATING_WEBHOOK_LISTEN_ADDRESS"}},
		{"conversion-webhook-service-name", conv.ServiceName, "Service in front of the conversion webhook server (port 443), in the operator's namespace", []string{"CONVERSION_WEBHOOK_SERVICE_NAME"}},
		{"conversion-webhook-server-cert", conv.CertFile, "conversion server certificate (re-read when it changes)", []string{"CONVERSION_WEBHOOK_SERVER_CERT"}},
		{"conversion-webhook-server-key", conv.KeyFile, "conversion server key", []string{"CONVERSION_WEBHOOK_SERVER_KEY"}},
		{"conversion-webhook-ca", conv.CAFile, "CA of the conversion server certificate (the CRDs' caBundle)", []string{"CONVERSION_WEBHOOK_CA"}},
		{"conversion-webhook-client-ca", "", "CAs of client certificates, comma-separated (the flag may be repeated); set: mTLS", []string{"CONVERSION_WEBHOOK_CLIENT_CA"}},
		{"conversion-webhook-listen-port", "9681", "conversion server port", []string{"CONVERSION_WEBHOOK_LISTEN_PORT"}},
		{"conversion-webhook-listen-address", conv.ListenAddress, "conversion server address", []string{"CONVERSION_WEBHOOK_LISTEN_ADDRESS"}},
		{"webhook-url", "", "base URL the apiserver calls for admission reviews (https://127.0.0.1:9680) instead of the Service; empty: the Service", []string{"ADDON_OPERATOR_WEBHOOK_URL"}},
		{"webhook-conversion-url", "", "base URL the apiserver calls for conversion reviews instead of the Service; empty: the Service", []string{"ADDON_OPERATOR_WEBHOOK_CONVERSION_URL"}},
		{"webhook-concurrency", "4", "reviews one hook answers at once; more wait for a slot within their timeout", []string{"ADDON_OPERATOR_WEBHOOK_CONCURRENCY"}},
		{"webhook-max-in-flight", strconv.Itoa(server.DefaultMaxInFlight), "reviews read or answered at once (waiting for a hook's slot included), all hooks and both servers together; more get 503 at once (the apiserver applies failurePolicy)", []string{"ADDON_OPERATOR_WEBHOOK_MAX_IN_FLIGHT"}},
		{"webhook-max-in-flight-bytes", strconv.FormatInt(server.DefaultMaxInFlightBytes, 10), "bytes of review bodies held at once (each at its Content-Length; a chunked one at the cap), all reviews together; a review past it gets 503 at once", []string{"ADDON_OPERATOR_WEBHOOK_MAX_IN_FLIGHT_BYTES"}},
		{"webhook-max-connections", strconv.Itoa(server.DefaultMaxConnections), "connections each webhook server holds open at once; more wait in the backlog", []string{"ADDON_OPERATOR_WEBHOOK_MAX_CONNECTIONS"}},
		{"webhook-admission-max-bytes", strconv.FormatInt(server.DefaultAdmissionMaxBytes, 10), "largest admission review body; past it 413", []string{"ADDON_OPERATOR_WEBHOOK_ADMISSION_MAX_BYTES"}},
		{"webhook-conversion-max-bytes", strconv.FormatInt(server.DefaultConversionMaxBytes, 10), "largest conversion review body (a list of objects); past it 413", []string{"ADDON_OPERATOR_WEBHOOK_CONVERSION_MAX_BYTES"}},
		{"webhook-http2", "false", "let the webhook servers' clients negotiate HTTP/2 (off: http/1.1 only)", []string{"ADDON_OPERATOR_WEBHOOK_HTTP2"}},
	}
}

func (c *converter) webhooks(v map[string]string) Webhooks {
	adm, conv := server.DefaultAdmission(), server.DefaultConversion()
	adm.ConfigurationName, adm.ServiceName = v["validating-webhook-configuration-name"], v["validating-webhook-service-name"]
	adm.CertFile, adm.KeyFile, adm.CAFile = v["validating-webhook-server-cert"], v["validating-webhook-server-key"], v["validating-webhook-ca"]
	adm.ClientCAFiles = split(v["validating-webhook-client-ca"], ",")
	c.oneOf(v["validating-webhook-failure-policy"], "validating-webhook-failure-policy", "Fail", "Ignore")
	adm.ListenPort, adm.ListenAddress = c.port(v, "validating-webhook-listen-port"), v["validating-webhook-listen-address"]
	conv.ServiceName = v["conversion-webhook-service-name"]
	conv.CertFile, conv.KeyFile, conv.CAFile = v["conversion-webhook-server-cert"], v["conversion-webhook-server-key"], v["conversion-webhook-ca"]
	conv.ClientCAFiles = split(v["conversion-webhook-client-ca"], ",")
	conv.ListenPort, conv.ListenAddress = c.port(v, "conversion-webhook-listen-port"), v["conversion-webhook-listen-address"]
	adm.MaxConnections = c.positive(v, "webhook-max-connections")
	adm.HTTP2 = c.boolean(v, "webhook-http2")
	conv.MaxConnections, conv.HTTP2 = adm.MaxConnections, adm.HTTP2
	return Webhooks{Admission: adm, Conversion: conv, AdmissionURL: strings.TrimSuffix(v["webhook-url"], "/"),
		ConversionURL: strings.TrimSuffix(v["webhook-conversion-url"], "/"), Concurrency: c.positive(v, "webhook-concurrency"),
		MaxInFlight: c.positive(v, "webhook-max-in-flight"), MaxInFlightBytes: int64(c.positive(v, "webhook-max-in-flight-bytes")),
		AdmissionMaxBytes: int64(c.positive(v, "webhook-admission-max-bytes")), ConversionMaxBytes: int64(c.positive(v, "webhook-conversion-max-bytes"))}
}

// repeatableFlags are the flags shell-operator lets a command line repeat,
// each use adding an item: the client CAs.
func repeatableFlags() map[string]bool {
	return map[string]bool{"validating-webhook-client-ca": true, "conversion-webhook-client-ca": true}
}

// listFlag is a repeatable flag's value: its uses joined with commas, as
// the variable lists them.
type listFlag string

func (l *listFlag) String() string { return string(*l) }

func (l *listFlag) Set(item string) error {
	if *l != "" {
		item = string(*l) + "," + item
	}
	*l = listFlag(item)
	return nil
}
