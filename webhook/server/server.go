package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// The servers' timeouts. The apiserver sends a review's headers at once,
// so a client still sending them (or its TLS handshake, which the read
// header timeout bounds too) after readHeaderTimeout is cut off; the whole
// request (body included) must be in within readTimeout. The reply may be
// written until writeTimeout after the headers are read: the body's read,
// then the hook's run (timeoutSeconds, 30 at most; conversions 30s), then
// the reply. A keep-alive connection idle for idleTimeout is closed.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = readTimeout + 30*time.Second + 5*time.Second
	idleTimeout       = 30 * time.Second
)

// tlsCipherSuites are the TLS 1.2 suites accepted: ECDHE key exchange
// with an AEAD cipher only (TLS 1.3's suites are all AEAD and not
// configurable).
var tlsCipherSuites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

// shutdownGrace bounds how long Serve waits for reviews in flight.
const shutdownGrace = 5 * time.Second

// Server is one TLS webhook server.
type Server struct {
	settings Settings
	http     *http.Server
	log      *slog.Logger
	ln       net.Listener
	fresh    *freshConns
}

// New prepares a server of handler (Dispatcher.Admission or
// Dispatcher.Conversion); the certificate must load now.
func New(s Settings, handler http.Handler, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	certs, err := newCertSource(s.CertFile, s.KeyFile, log)
	if err != nil {
		return nil, err
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, CipherSuites: tlsCipherSuites, GetCertificate: certs.GetCertificate}
	if len(s.ClientCAFiles) > 0 {
		if tlsConfig.ClientCAs, err = clientCAPool(s.ClientCAFiles); err != nil {
			return nil, err
		}
		tlsConfig.ClientAuth = tls.RequireAndVerifyClientCert
	}
	if s.MaxConnections <= 0 {
		s.MaxConnections = DefaultMaxConnections
	}
	fresh := newFreshConns()
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(s.HTTP2)
	srv := &http.Server{
		Handler:           handler,
		TLSConfig:         tlsConfig,
		Protocols:         protocols,
		ReadTimeout:       readTimeout,
		ReadHeaderTimeout: readHeaderTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ConnState:         fresh.track,
		// Handshake errors of junk clients are the norm on an open
		// port; they are logged at debug level only.
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	return &Server{settings: s, http: srv, log: log, fresh: fresh}, nil
}

// Listen binds the listen address and port.
func (s *Server) Listen() error {
	addr := net.JoinHostPort(s.settings.ListenAddress, strconv.Itoa(s.settings.ListenPort))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("webhook server listen %s: %w", addr, err)
	}
	s.ln = newLimitListener(ln, s.settings.MaxConnections)
	return nil
}

// Addr is the bound address (after Listen).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve serves until ctx ends, then shuts down, waiting shutdownGrace at
// most for reviews in flight. Listen must have been called.
func (s *Server) Serve(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.http.ServeTLS(s.ln, "", "") }()
	select {
	case err := <-done:
		return fmt.Errorf("webhook server %s: %w", s.ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	s.fresh.closeAll()
	err := s.http.Shutdown(shutdown)
	if err != nil {
		// Reviews still in flight after the grace: their apiserver gives
		// up on them anyway.
		_ = s.http.Close()
	}
	if serveErr := <-done; !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("webhook server %s: %w", s.ln.Addr(), serveErr)
	}
	if err != nil {
		return fmt.Errorf("webhook server %s shutdown: %w", s.ln.Addr(), err)
	}
	return nil
}
