package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
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
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate kubelet CA key: %w", err)
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "testcluster-kubelet-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("sign kubelet CA: %w", err)
	}
	clientKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate kubelet client key: %w", err)
	}
	client := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver-kubelet-client", Organization: []string{"system:masters"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	clientDER, err := x509.CreateCertificate(rand.Reader, client, ca, &clientKey.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("sign kubelet client certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(clientKey)
	if err != nil {
		return fmt.Errorf("encode kubelet client key: %w", err)
	}
	return writePEM(dir, map[string]*pem.Block{
		kubeletCAFile:         {Type: "CERTIFICATE", Bytes: caDER},
		kubeletClientCertFile: {Type: "CERTIFICATE", Bytes: clientDER},
		kubeletClientKeyFile:  {Type: "PRIVATE KEY", Bytes: keyDER},
	})
}

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
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate apiserver key: %w", err)
	}
	now := time.Now()
	cert := &x509.Certificate{
		SerialNumber:          big.NewInt(now.UnixNano()),
		Subject:               pkix.Name{CommonName: "testcluster-apiserver"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
		IPAddresses: append([]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP(serviceIP)}, extra...),
	}
	der, err := x509.CreateCertificate(rand.Reader, cert, cert, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("sign apiserver certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("encode apiserver key: %w", err)
	}
	pki := filepath.Join(dir, "pki")
	if err := os.MkdirAll(pki, 0o755); err != nil {
		return fmt.Errorf("cert dir: %w", err)
	}
	return writePEM(pki, map[string]*pem.Block{
		"apiserver.crt": {Type: "CERTIFICATE", Bytes: der},
		"apiserver.key": {Type: "PRIVATE KEY", Bytes: keyDER},
	})
}
