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

// serverTimeouts are shell-operator's: read, read header and idle 10s,
// no write timeout (a hook may take up to its timeoutSeconds, 30 at most).
const serverTimeouts = 10 * time.Second

// shutdownGrace bounds how long Serve waits for reviews in flight.
const shutdownGrace = 5 * time.Second

// Server is one TLS webhook server.
type Server struct {
	settings Settings
	http     *http.Server
	log      *slog.Logger
	ln       net.Listener
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
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.GetCertificate}
	if len(s.ClientCAFiles) > 0 {
		if tlsConfig.ClientCAs, err = clientCAPool(s.ClientCAFiles); err != nil {
			return nil, err
		}
		tlsConfig.ClientAuth = tls.RequireAndVerifyClientCert
	}
	srv := &http.Server{
		Handler:           handler,
		TLSConfig:         tlsConfig,
		ReadTimeout:       serverTimeouts,
		ReadHeaderTimeout: serverTimeouts,
		IdleTimeout:       serverTimeouts,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return &Server{settings: s, http: srv, log: log}, nil
}

// Listen binds the listen address and port.
func (s *Server) Listen() error {
	addr := net.JoinHostPort(s.settings.ListenAddress, strconv.Itoa(s.settings.ListenPort))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("webhook server listen %s: %w", addr, err)
	}
	s.ln = ln
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
