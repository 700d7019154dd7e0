package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// heapProfile fetches the operator's heap profile (after a GC) from its
// debug socket into file, and its goroutines (text) into file.goroutines.
func heapProfile(socket, file string) error {
	if err := debugProfile(socket, "/debug/pprof/goroutine?debug=1", file+".goroutines"); err != nil {
		return err
	}
	return debugProfile(socket, "/debug/pprof/heap?gc=1", file)
}

// debugProfile fetches path from the operator's debug socket into file.
func debugProfile(socket, path, file string) error {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		}}}
	resp, err := client.Get("http://debug" + path)
	if err != nil {
		return fmt.Errorf("%s from %s: %w", path, socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s from %s: status %d", path, socket, resp.StatusCode)
	}
	out, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	if _, err := io.Copy(out, resp.Body); err != nil {
		out.Close()
		return fmt.Errorf("profile %s: %w", file, err)
	}
	return out.Close()
}
