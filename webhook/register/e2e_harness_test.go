package register_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/addon-actors/addon-operator/test/testpki"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// hooks is the test's Runner: functions standing for hooks.
type hooks struct {
	admit   func(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error)
	convert func(ctx context.Context, c webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error)
}

func (h hooks) Admit(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error) {
	return h.admit(ctx, a, request)
}

func (h hooks) Convert(ctx context.Context, c webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error) {
	if h.convert == nil {
		return nil, errors.New("no conversion hook")
	}
	return h.convert(ctx, c, from, to, request)
}

// serve starts the admission and conversion servers of runner on
// loopback and returns the dispatcher, their base URLs and the CA.
func serve(t *testing.T, runner server.Runner) (d *server.Dispatcher, admissionURL, conversionURL string, ca []byte) {
	t.Helper()
	pki, err := testpki.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d, err = server.NewDispatcher(server.Config{Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	urls := make([]string, 2)
	for i, handler := range []http.Handler{d.Admission(), d.Conversion()} {
		s := server.Settings{ListenAddress: "127.0.0.1", CertFile: pki.CertFile, KeyFile: pki.KeyFile}
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
		urls[i] = "https://" + srv.Addr().String()
	}
	return d, urls[0], urls[1], pki.CAPEM
}
