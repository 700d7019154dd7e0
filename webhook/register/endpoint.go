package register

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// DefaultServicePort is the Service port the apiserver calls when none is
// set, as for shell-operator (whose Service maps 443 to 9680/9681).
const DefaultServicePort int32 = 443

// Endpoint is where the apiserver reaches a webhook server.
type Endpoint struct {
	// URL, when set, is the server's base (https://host:port) and the
	// Service fields are not used.
	URL         string
	Namespace   string
	ServiceName string
	Port        int32 // 0: DefaultServicePort
	CABundle    []byte
}

func (e Endpoint) port() *int32 {
	p := e.Port
	if p == 0 {
		p = DefaultServicePort
	}
	return &p
}

// admission is the client config of an admission webhook at path.
func (e Endpoint) admission(path string) admissionregistrationv1.WebhookClientConfig {
	cc := admissionregistrationv1.WebhookClientConfig{CABundle: e.CABundle}
	if e.URL != "" {
		url := e.URL + path
		cc.URL = &url
		return cc
	}
	cc.Service = &admissionregistrationv1.ServiceReference{Namespace: e.Namespace, Name: e.ServiceName, Path: &path, Port: e.port()}
	return cc
}

// Conversion is the client config of a CRD's conversion webhook at path:
// the admission one, in apiextensions' types.
func (e Endpoint) Conversion(path string) apiextensionsv1.WebhookClientConfig {
	a := e.admission(path)
	cc := apiextensionsv1.WebhookClientConfig{URL: a.URL, CABundle: a.CABundle}
	if s := a.Service; s != nil {
		cc.Service = &apiextensionsv1.ServiceReference{Namespace: s.Namespace, Name: s.Name, Path: s.Path, Port: s.Port}
	}
	return cc
}
