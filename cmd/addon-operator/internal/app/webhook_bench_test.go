package app_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/test/testpki"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// BenchmarkWebhookAdmission measures an admission review posted to the
// operator's webhook server and answered by a bash global hook run
// through the operator's Runner (values, binding context, response file),
// with 1 and 20 clients at once and the default 4 runs of a hook at once:
// p50 and p99 of the reviews' latency, in ms.
func BenchmarkWebhookAdmission(b *testing.B) {
	ns := kube.Namespace(b)
	name := "bench.webhook.example.com"
	config := `{"configVersion":"v1","kubernetesValidating":[{"name":"` + name + `",` +
		`"namespace":{"labelSelector":{"matchLabels":{"kubernetes.io/metadata.name":"` + ns + `"}}},` +
		`"labelSelector":{"matchLabels":{"never":"matched"}},` +
		`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"],"scope":"Namespaced"}]}]}`
	root := tree(b, map[string]string{"global-hooks/bench": hook(config, `echo '{"allowed":true}' > "$VALIDATING_RESPONSE_PATH"`)})
	base, client := benchServer(b, root, ns)
	url := base + webhook.AdmissionPath(webhook.GlobalOwner, name)
	for _, clients := range []int{1, 20} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			latencies := postReviews(b, client, url, clients)
			b.ReportMetric(percentile(latencies, 50), "ms-p50")
			b.ReportMetric(percentile(latencies, 99), "ms-p99")
		})
	}
}

// benchServer starts the app with its webhook servers on loopback and
// returns the admission server's base URL and a client trusting it.
func benchServer(b *testing.B, root, ns string) (string, *http.Client) {
	pki, err := testpki.New(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ca := filepath.Join(b.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, pki.CAPEM, 0o600); err != nil {
		b.Fatal(err)
	}
	port := freePort(b)
	adm, conv := server.DefaultAdmission(), server.DefaultConversion()
	adm.ListenAddress, adm.ListenPort, adm.CertFile, adm.KeyFile, adm.CAFile = "127.0.0.1", port, pki.CertFile, pki.KeyFile, ca
	adm.ConfigurationName = ns
	base := fmt.Sprintf("https://127.0.0.1:%d", port)
	kc := kubernetes.NewForConfigOrDie(kube.Config(b))
	b.Cleanup(func() {
		_ = kc.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(context.Background(), ns+"-global", metav1.DeleteOptions{})
	})
	s := startAppIn(b, root, ns, func(c *app.Config) {
		c.Webhooks = settings.Webhooks{Admission: adm, Conversion: conv, AdmissionURL: base, Concurrency: 4}
	})
	s.waitReady(b)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.CAPEM)
	return base, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 64}}
}

// postReviews posts b.N reviews from clients goroutines and returns their
// latencies.
func postReviews(b *testing.B, client *http.Client, url string, clients int) []time.Duration {
	var mu sync.Mutex
	var latencies []time.Duration
	next := make(chan int)
	var wg sync.WaitGroup
	b.ResetTimer()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				took := postReview(b, client, url, i)
				mu.Lock()
				latencies = append(latencies, took)
				mu.Unlock()
			}
		}()
	}
	for i := range b.N {
		next <- i
	}
	close(next)
	wg.Wait()
	b.StopTimer()
	return latencies
}

func postReview(b *testing.B, client *http.Client, url string, i int) time.Duration {
	body := fmt.Sprintf(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u%d","operation":"CREATE",`+
		`"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c%d"}}}}`, i, i)
	start := time.Now()
	resp, err := client.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		b.Error(err)
		return 0
	}
	defer resp.Body.Close()
	reply, _ := io.ReadAll(resp.Body)
	took := time.Since(start)
	if resp.StatusCode != http.StatusOK || !bytes.Contains(reply, []byte(`"allowed":true`)) {
		b.Errorf("review %d: %d %s", i, resp.StatusCode, reply)
	}
	return took
}

func freePort(b *testing.B) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
