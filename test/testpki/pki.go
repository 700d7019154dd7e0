// Package testpki makes certificates for tests: a CA and a serving
// certificate for 127.0.0.1 for the webhook tests, and the CAs and
// certificates of the test cluster.
package testpki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// CA is a self-signed certificate and its key, which can sign others.
type CA struct {
	Cert *x509.Certificate
	// DER and KeyDER are the certificate and its key (PKCS #8), for PEM
	// files.
	DER, KeyDER []byte
	key         *ecdsa.PrivateKey
}

// SelfSigned makes a key and the certificate tmpl signed by it: a CA, or a
// serving certificate that its clients trust as their CA.
func SelfSigned(tmpl *x509.Certificate) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate key of %s: %w", tmpl.Subject.CommonName, err)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("sign %s: %w", tmpl.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", tmpl.Subject.CommonName, err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encode key of %s: %w", tmpl.Subject.CommonName, err)
	}
	return &CA{Cert: cert, DER: der, KeyDER: keyDER, key: key}, nil
}

// NewCA makes a CA named commonName, valid from an hour ago for validity.
func NewCA(commonName string, validity time.Duration) (*CA, error) {
	now := time.Now()
	return SelfSigned(&x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: commonName},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(validity), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true})
}

// Sign makes a key and the certificate tmpl signed by the CA, and returns
// both as DER (the key as PKCS #8).
func (ca *CA) Sign(tmpl *x509.Certificate) (certDER, keyDER []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate key of %s: %w", tmpl.Subject.CommonName, err)
	}
	certDER, err = x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, nil, fmt.Errorf("sign %s: %w", tmpl.Subject.CommonName, err)
	}
	keyDER, err = x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("encode key of %s: %w", tmpl.Subject.CommonName, err)
	}
	return certDER, keyDER, nil
}

// PKI is a CA and the files of a certificate it signed.
type PKI struct {
	CAPEM             []byte
	CertFile, KeyFile string
	ca                *CA
}

// New makes a CA and a serving certificate in dir.
func New(dir string) (*PKI, error) {
	ca, err := NewCA("webhook test CA", 24*time.Hour)
	if err != nil {
		return nil, err
	}
	p := &PKI{CAPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.DER}), ca: ca,
		CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key")}
	return p, p.Issue("webhook-1")
}

// Issue writes a new serving certificate named commonName (rotation),
// each file replaced at once.
func (p *PKI) Issue(commonName string) error {
	der, keyDER, err := p.ca.Sign(&x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject: pkix.Name{CommonName: commonName}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(24 * time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}})
	if err != nil {
		return err
	}
	if err := replace(p.KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})); err != nil {
		return err
	}
	return replace(p.CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func replace(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	return os.Rename(tmp, name)
}
