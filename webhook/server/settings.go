package server

// Settings are one server's, named as shell-operator's
// VALIDATING_WEBHOOK_* and CONVERSION_WEBHOOK_* settings.
type Settings struct {
	ListenAddress string
	ListenPort    int // 0: any free port (tests)
	CertFile      string
	KeyFile       string
	// CAFile is the CA that signed CertFile: the caBundle the apiserver
	// gets (used by webhook/register, not by the server).
	CAFile string
	// ClientCAFiles, when set, make the server require client
	// certificates signed by one of them (mTLS).
	ClientCAFiles []string
	// ServiceName is the Service in front of the server (registration).
	ServiceName string
	// ConfigurationName prefixes the admission configurations' names
	// (admission only).
	ConfigurationName string
	// MaxConnections bounds the connections open at once (0:
	// DefaultMaxConnections).
	MaxConnections int
	// HTTP2 lets clients negotiate HTTP/2; off, ALPN picks http/1.1.
	HTTP2 bool
}

// DefaultAdmission are shell-operator's admission defaults.
func DefaultAdmission() Settings {
	return Settings{
		ListenAddress:     "0.0.0.0",
		ListenPort:        9680,
		CertFile:          "/validating-certs/tls.crt",
		KeyFile:           "/validating-certs/tls.key",
		CAFile:            "/validating-certs/ca.crt",
		ServiceName:       "shell-operator-validating-svc",
		ConfigurationName: "shell-operator-hooks",
	}
}

// DefaultConversion are shell-operator's conversion defaults.
func DefaultConversion() Settings {
	return Settings{
		ListenAddress: "0.0.0.0",
		ListenPort:    9681,
		CertFile:      "/conversion-certs/tls.crt",
		KeyFile:       "/conversion-certs/tls.key",
		CAFile:        "/conversion-certs/ca.crt",
		ServiceName:   "shell-operator-conversion-svc",
	}
}
