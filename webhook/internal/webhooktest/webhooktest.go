package webhooktest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// Funcs is a server.Runner of functions standing for hooks; a nil one
// fails the review.
type Funcs struct {
	OnAdmit   func(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error)
	OnConvert func(ctx context.Context, c webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error)
}

// Admit runs OnAdmit.
func (f Funcs) Admit(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error) {
	if f.OnAdmit == nil {
		return nil, errors.New("no admission hook")
	}
	return f.OnAdmit(ctx, a, request)
}

// Convert runs OnConvert.
func (f Funcs) Convert(ctx context.Context, c webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error) {
	if f.OnConvert == nil {
		return nil, errors.New("no conversion hook")
	}
	return f.OnConvert(ctx, c, from, to, request)
}

// Serve listens with s and serves handler until the test ends, when it
// checks that the server stopped without an error; it returns the base URL.
func Serve(t testing.TB, s server.Settings, handler http.Handler) string {
	t.Helper()
	srv, err := server.New(s, handler, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return "https://" + srv.Addr().String()
}
