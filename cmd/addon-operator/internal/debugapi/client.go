package debugapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Client reads the debug API of a running operator.
type Client struct {
	socket string
	http   *http.Client
}

// NewClient talks to the operator listening on socket.
func NewClient(socket string) *Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}}
	return &Client{socket: socket, http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// Get returns the body of path.
func (c *Client) Get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://operator"+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("debug socket %s: %w (is the operator running? set DEBUG_UNIX_SOCKET)", c.socket, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", path, string(body))
	}
	return body, nil
}
