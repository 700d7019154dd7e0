package cluster

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/test/testpki"
)

// writeCredentials creates the service-account signing key, the token file
// that makes the returned token a system:masters user, the apiserver's
// serving certificate (also valid for extra) and its client certificate for
// kubelets.
func writeCredentials(dir string, extra ...net.IP) (token string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", fmt.Errorf("generate service-account key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", fmt.Errorf("encode service-account key: %w", err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := os.WriteFile(filepath.Join(dir, "sa.key"), keyPEM, 0o600); err != nil {
		return "", fmt.Errorf("write service-account key: %w", err)
	}
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	token = hex.EncodeToString(raw)
	line := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n", token)
	if err := os.WriteFile(filepath.Join(dir, "tokens.csv"), []byte(line), 0o600); err != nil {
		return "", fmt.Errorf("write token file: %w", err)
	}
	if err := writeServingCert(dir, extra...); err != nil {
		return "", err
	}
	return token, writeKubeletClientCert(dir)
}

// Files of the kubelet client identity: a CA that the node's kubelet trusts
// and the certificate the apiserver presents to it (logs, exec, port-forward).
const (
	kubeletCAFile         = "kubelet-ca.crt"
	kubeletClientCertFile = "kubelet-client.crt"
	kubeletClientKeyFile  = "kubelet-client.key"
)

// writeKubeletClientCert creates a CA and, signed by it, a client
// certificate in group system:masters for the apiserver. Every cluster gets
// them (a few milliseconds); only a node's kubelet uses them.
func writeKubeletClientCert(dir string) error {
	ca, err := testpki.NewCA("testcluster-kubelet-ca", tenYears)
	if err != nil {
		return fmt.Errorf("kubelet CA: %w", err)
	}
	now := time.Now()
	clientDER, keyDER, err := ca.Sign(&x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver-kubelet-client", Organization: []string{"system:masters"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(tenYears),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return fmt.Errorf("kubelet client certificate: %w", err)
	}
	return writePEM(dir, map[string]*pem.Block{
		kubeletCAFile:         {Type: "CERTIFICATE", Bytes: ca.DER},
		kubeletClientCertFile: {Type: "CERTIFICATE", Bytes: clientDER},
		kubeletClientKeyFile:  {Type: "PRIVATE KEY", Bytes: keyDER},
	})
}

// tenYears is how long the cluster's certificates are valid: a cached
// cluster dir outlives many runs.
const tenYears = 10 * 365 * 24 * time.Hour

// writePEM writes each block to its file under dir, readable by its owner
// only.
func writePEM(dir string, files map[string]*pem.Block) error {
	for name, block := range files {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

// serviceIP is the kubernetes Service's address: the first of
// --service-cluster-ip-range.
const serviceIP = "10.0.0.1"

// writeServingCert writes the apiserver's serving certificate and key into
// its cert dir (pki/apiserver.crt and .key, where it looks before it would
// generate its own), self-signed and valid for loopback, the kubernetes
// Service's names and address, and extra (the node's address, through which
// pods reach it). The kubeconfig and the pods' ca.crt trust this file.
func writeServingCert(dir string, extra ...net.IP) error {
	now := time.Now()
	cert, err := testpki.SelfSigned(&x509.Certificate{
		SerialNumber:          big.NewInt(now.UnixNano()),
		Subject:               pkix.Name{CommonName: "testcluster-apiserver"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(tenYears),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
		IPAddresses: append([]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP(serviceIP)}, extra...),
	})
	if err != nil {
		return fmt.Errorf("apiserver certificate: %w", err)
	}
	pki := filepath.Join(dir, "pki")
	if err := os.MkdirAll(pki, 0o755); err != nil {
		return fmt.Errorf("cert dir: %w", err)
	}
	return writePEM(pki, map[string]*pem.Block{
		"apiserver.crt": {Type: "CERTIFICATE", Bytes: cert.DER},
		"apiserver.key": {Type: "PRIVATE KEY", Bytes: cert.KeyDER},
	})
}
