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
// debug socket into file.
func heapProfile(socket, file string) error {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		}}}
	resp, err := client.Get("http://debug/debug/pprof/heap?gc=1")
	if err != nil {
		return fmt.Errorf("heap profile from %s: %w", socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("heap profile from %s: status %d", socket, resp.StatusCode)
	}
	out, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	if _, err := io.Copy(out, resp.Body); err != nil {
		out.Close()
		return fmt.Errorf("heap profile %s: %w", file, err)
	}
	return out.Close()
}
