package configreview_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/configreview"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// handler is the admission handler the operator serves, with the
// ModuleConfig binding set and ready.
func handler(t testing.TB) http.Handler {
	t.Helper()
	cat := catalog(t)
	d, err := server.NewDispatcher(server.Config{Runner: configreview.Runner{Catalog: func() *configreview.Catalog { return cat }}})
	if err != nil {
		t.Fatal(err)
	}
	d.Set(configreview.Owner, []webhook.Admission{configreview.Binding("Ignore")}, nil)
	d.Ready(configreview.Owner, configreview.Hook)
	return d.Admission()
}

func reviewBody(t testing.TB, req *admissionv1.AdmissionRequest) []byte {
	t.Helper()
	body, err := json.Marshal(admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}, Request: req})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func post(t testing.TB, h http.Handler, body []byte) admissionv1.AdmissionReview {
	r := httptest.NewRequest(http.MethodPost, configreview.Binding("Ignore").Path(), bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var out admissionv1.AdmissionReview
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Response == nil {
		t.Fatalf("reply %d %s: %v", w.Code, w.Body, err)
	}
	return out
}

// Through the dispatcher's handler, the verdict is the AdmissionResponse:
// a denial with code 403 and the message, warnings passed through.
func TestHandler(t *testing.T) {
	h := handler(t)
	out := post(t, h, reviewBody(t, request(admissionv1.Create, mc("web", `{"version":1,"settings":{"count":0}}`))))
	resp := out.Response
	if resp.Allowed || resp.UID != "u" || resp.Result == nil || resp.Result.Code != http.StatusForbidden ||
		!bytes.Contains([]byte(resp.Result.Message), []byte("/web/replicas")) || len(resp.Warnings) != 1 {
		t.Fatalf("response %+v, want a 403 naming /web/replicas with the obsolete warning", resp)
	}
	out = post(t, h, reviewBody(t, request(admissionv1.Create, mc("web", `{"version":1,"settings":{"count":2}}`))))
	if !out.Response.Allowed || len(out.Response.Warnings) != 1 {
		t.Fatalf("response %+v, want allowed with the obsolete warning", out.Response)
	}
}

// BenchmarkReview measures a ModuleConfig's admission review through the
// operator's handler in-process (decode, conversion v1 → v2, schema check,
// reply), and reports p50 and p99.
func BenchmarkReview(b *testing.B) {
	h := handler(b)
	body := reviewBody(b, request(admissionv1.Update, mc("web", `{"version":1,"settings":{"count":3,"image":"nginx:1.27"}}`)))
	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		if out := post(b, h, body); !out.Response.Allowed {
			b.Fatalf("denied: %+v", out.Response.Result)
		}
		latencies = append(latencies, time.Since(began))
	}
	b.StopTimer()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
}
