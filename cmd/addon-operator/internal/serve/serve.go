package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Limits bound how long a connection may hold a server goroutine.
type Limits struct {
	// ReadHeader is how long a client has to send its request headers.
	ReadHeader time.Duration
	// Write is how long the server writes an answer (a client that does
	// not read it is cut off).
	Write time.Duration
	// Idle is how long a kept-alive connection waits for the next request.
	Idle time.Duration
	// Shutdown is how long requests in flight may finish at the end.
	Shutdown time.Duration
	// MaxHeaderBytes bounds what the server reads of a request's line and
	// headers (a bearer token fits many times over); past it the client
	// gets 431.
	MaxHeaderBytes int
}

// DefaultLimits returns the limits of both servers.
func DefaultLimits() Limits {
	return Limits{ReadHeader: 10 * time.Second, Write: time.Minute, Idle: time.Minute, Shutdown: 5 * time.Second,
		MaxHeaderBytes: 32 << 10}
}

// Server is one HTTP server on a listener.
type Server struct {
	Name    string // names the server in logs and errors, e.g. "HTTP server"
	Handler http.Handler
	Limits  Limits
	Log     *slog.Logger
	// ConnState, if set, is told of every connection's state changes.
	ConnState func(net.Conn, http.ConnState)
}

// Run serves on ln until ctx is done, then shuts down gracefully. It
// returns early with the error if serving fails.
func (s Server) Run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.Handler, ReadHeaderTimeout: s.Limits.ReadHeader,
		WriteTimeout: s.Limits.Write, IdleTimeout: s.Limits.Idle, ConnState: s.ConnState, MaxHeaderBytes: s.Limits.MaxHeaderBytes,
		ErrorLog: slog.NewLogLogger(s.Log.Handler(), slog.LevelDebug)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.Log.Info(s.Name+" listening", "address", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("%s: %w", s.Name, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), s.Limits.Shutdown)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = srv.Close()
		return fmt.Errorf("%s shutdown: %w", s.Name, err)
	}
	return nil
}
