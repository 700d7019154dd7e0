package debugapi

import (
	"context"
	"encoding/json"
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
	return c.do(c.http, req, path, func(body []byte) string { return string(body) })
}

// GetJSON decodes the body of path as a T.
func GetJSON[T any](ctx context.Context, c *Client, path string) (T, error) {
	var v T
	body, err := c.Get(ctx, path)
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// do sends req with hc and returns the answer's body; an answer other
// than 200 is an error naming path, with what shown makes of the body.
func (c *Client) do(hc *http.Client, req *http.Request, path string, shown func([]byte) string) ([]byte, error) {
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("debug socket %s: %w (is the operator running? set DEBUG_UNIX_SOCKET)", c.socket, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", path, shown(body))
	}
	return body, nil
}
