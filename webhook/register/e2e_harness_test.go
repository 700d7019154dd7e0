package register_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/testpki"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/server"
)

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
	s := server.Settings{ListenAddress: "127.0.0.1", CertFile: pki.CertFile, KeyFile: pki.KeyFile}
	admissionURL = webhooktest.Serve(t, s, d.Admission())
	conversionURL = webhooktest.Serve(t, s, d.Conversion())
	return d, admissionURL, conversionURL, pki.CAPEM
}
