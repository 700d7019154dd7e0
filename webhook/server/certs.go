package server

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certSource hands out the server's certificate pair, re-reading the
// files at a handshake whose files' stamps changed since the last read.
// A pair that does not load (a rotation caught between the cert and the
// key) leaves the previous one in use and is tried again next handshake.
type certSource struct {
	certFile, keyFile string
	log               *slog.Logger
	mu                sync.Mutex
	stamps            [2]fileStamp
	pair              *tls.Certificate
}

type fileStamp struct {
	mod  time.Time
	size int64
}

func newCertSource(certFile, keyFile string, log *slog.Logger) (*certSource, error) {
	c := &certSource{certFile: certFile, keyFile: keyFile, log: log}
	if _, err := c.GetCertificate(nil); err != nil {
		return nil, err
	}
	return c, nil
}

// GetCertificate is tls.Config.GetCertificate.
func (c *certSource) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	stamps, statErr := c.stat()
	c.mu.Lock()
	defer c.mu.Unlock()
	if statErr == nil && (c.pair == nil || stamps != c.stamps) {
		pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
		switch {
		case err == nil:
			c.pair, c.stamps = &pair, stamps
		case c.pair != nil:
			c.log.Warn("webhook certificate not reloaded; serving the previous one", "cert", c.certFile, "error", err)
		default:
			return nil, fmt.Errorf("load webhook certificate %s, key %s: %w", c.certFile, c.keyFile, err)
		}
	}
	if c.pair == nil {
		return nil, fmt.Errorf("webhook certificate %s: %w", c.certFile, statErr)
	}
	return c.pair, nil
}

func (c *certSource) stat() ([2]fileStamp, error) {
	var stamps [2]fileStamp
	for i, name := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return stamps, fmt.Errorf("stat %s: %w", name, err)
		}
		stamps[i] = fileStamp{mod: fi.ModTime(), size: fi.Size()}
	}
	return stamps, nil
}

// clientCAPool reads the PEM files of client CAs into one pool.
func clientCAPool(files []string) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	for _, name := range files {
		pem, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read webhook client CA: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("webhook client CA %s: no PEM certificate", name)
		}
	}
	return pool, nil
}
