package server

import (
	"net"
	"net/http"
	"sync"
)

// freshConns tracks the connections that have sent no request yet.
// http.Server.Shutdown takes such a connection for one in use until it is
// 5 s old, so a client's spare connection (the apiserver opens them ahead
// of its reviews) would hold every shutdown to its grace; they are closed
// at once instead, and so is one accepted while shutting down.
type freshConns struct {
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool
}

func newFreshConns() *freshConns { return &freshConns{conns: map[net.Conn]struct{}{}} }

// track is the server's ConnState hook.
func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case st == http.StateNew && f.closing:
		_ = c.Close()
	case st == http.StateNew:
		f.conns[c] = struct{}{}
	default:
		delete(f.conns, c)
	}
}

// closeAll closes the fresh connections, and every one from now on.
func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closing = true
	for c := range f.conns {
		_ = c.Close()
		delete(f.conns, c)
	}
}
