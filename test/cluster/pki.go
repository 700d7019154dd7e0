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
	"os"
	"path/filepath"
	"time"
)

// writeCredentials creates the service-account signing key, the token file
// that makes the returned token a system:masters user, and the apiserver's
// client certificate for kubelets.
func writeCredentials(dir string) (token string, err error) {
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
	files := map[string]*pem.Block{
		kubeletCAFile:         {Type: "CERTIFICATE", Bytes: caDER},
		kubeletClientCertFile: {Type: "CERTIFICATE", Bytes: clientDER},
		kubeletClientKeyFile:  {Type: "PRIVATE KEY", Bytes: keyDER},
	}
	for name, block := range files {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
