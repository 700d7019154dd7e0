package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// The reviews of spec/WEBHOOKS.md's examples, the seeds of both targets
// (more are in testdata/fuzz).
const (
	seedAdmission = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002",` +
		`"kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"namespace":"default",` +
		`"operation":"CREATE","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	seedConversion = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"0000-1111","desiredAPIVersion":"example.com/v2",` +
		`"objects":[{"apiVersion":"example.com/v1","kind":"CronTab","metadata":{"name":"c"},"spec":{"cronSpec":"* * * * */5"}}]}}`
)

// post sends body to h at path, as the apiserver does.
func post(h http.Handler, path string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.URL.Path = path
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Where the fuzz dispatcher serves its hooks.
const (
	admissionPath = "/mod/deny-example-com"
	crdName       = "crontabs.example.com"
)

// abs is path made absolute, as a request's is.
func abs(path string) string {
	if len(path) == 0 || path[0] != '/' {
		return "/" + path
	}
	return path
}

// review posts body to path and says whether it was
// answered with a review: 200; a refusal (400, a path the server does not
// route, a CRD no hook converts, or a redirect to the clean path) is
// false, any other status fails.
func review(t *testing.T, h http.Handler, path string, body []byte) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	rec := post(h, path, body)
	switch rec.Code {
	case http.StatusOK:
		return rec, true
	case http.StatusBadRequest, http.StatusNotFound:
		return rec, false
	case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return rec, false // ServeMux sends a path with "." or ".." segments to its clean form, unread
	case http.StatusInternalServerError:
		if strings.Contains(rec.Body.String(), "no hook found for CRD") && path != "/"+crdName {
			return rec, false
		}
	}
	t.Fatalf("status %d: %s", rec.Code, rec.Body)
	return rec, false
}

// fuzzAnswered fuzzes h with a path (made absolute) and a body, and checks
// with check the reply of each review that h answered.
func fuzzAnswered(f *testing.F, h http.Handler, check func(t *testing.T, path string, body, reply []byte)) {
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		path = abs(path)
		if rec, answered := review(t, h, path, body); answered {
			check(t, path, body, rec.Body.Bytes())
		}
	})
}

// convertAll is a conversion hook that sets every object's apiVersion to
// the rule's target.
func convertAll(_ context.Context, _ webhook.Conversion, _, to string, request json.RawMessage) ([]byte, error) {
	var req struct {
		Objects []map[string]any `json:"objects"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, err
	}
	for _, o := range req.Objects {
		o["apiVersion"] = to
	}
	return json.Marshal(map[string]any{"convertedObjects": req.Objects})
}

// fuzzDispatcher serves one admission binding at admissionPath (its hook
// allows) and one conversion of crdName from example.com/v1 to v2, with
// hooks that are functions: the reviews' decoding and routing are fuzzed,
// not processes.
func fuzzDispatcher(f *testing.F) *server.Dispatcher {
	d, err := server.NewDispatcher(server.Config{Runner: webhooktest.Funcs{OnAdmit: allow, OnConvert: convertAll}})
	if err != nil {
		f.Fatal(err)
	}
	d.Set("mod", deny(), []webhook.Conversion{{Hook: "c.sh", Name: "conv", CRDName: crdName,
		Rules: []webhook.ConversionRule{{From: "example.com/v1", To: "example.com/v2"}}}})
	d.Ready("mod", "h.sh")
	d.Ready("mod", "c.sh")
	return d
}

// FuzzAdmissionReview: any body to any path is a 400, or a 200 whose body
// is an AdmissionReview: at the served path, answering the request's uid
// as its hook does (allowed); elsewhere denied with shell-operator's "no
// hook found", whatever the body.
func FuzzAdmissionReview(f *testing.F) {
	for _, seed := range []string{seedAdmission, `{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"x"}}`,
		`{"request":null}`, `{"request":{"uid":5}}`, `{}`, `[]`, ``} {
		f.Add(admissionPath, []byte(seed))
		f.Add("/global/policy.example.com", []byte(seed))
	}
	fuzzAnswered(f, fuzzDispatcher(f).Admission(), func(t *testing.T, path string, body, reply []byte) {
		var out admissionv1.AdmissionReview
		if err := json.Unmarshal(reply, &out); err != nil || out.Response == nil {
			t.Fatalf("reply %s is no AdmissionReview with a response (%v)", reply, err)
		}
		if path != admissionPath {
			if out.Response.Allowed || out.Response.Result == nil || !strings.Contains(out.Response.Result.Message, "no hook found") {
				t.Fatalf("a path no hook serves: %s", reply)
			}
			return
		}
		var in struct {
			Request struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		_ = json.Unmarshal(body, &in)
		if string(out.Response.UID) != in.Request.UID || !out.Response.Allowed {
			t.Fatalf("reply uid %q allowed %v, want %q allowed", out.Response.UID, out.Response.Allowed, in.Request.UID)
		}
	})
}

// FuzzConversionReview: any body to any path is a refusal, or a 200 whose
// body is a ConversionReview answering the request's uid: a Success with
// as many objects as the request, or a Failure.
func FuzzConversionReview(f *testing.F) {
	for _, seed := range []string{seedConversion, `{"request":{"uid":"u","desiredAPIVersion":"example.com/v2","objects":[]}}`,
		`{"request":{"objects":[{}]}}`, `{"request":{"objects":[null,1,"x"]}}`, `{"request":null}`, `{}`, ``} {
		f.Add("/"+crdName, []byte(seed))
	}
	fuzzAnswered(f, fuzzDispatcher(f).Conversion(), func(t *testing.T, path string, body, reply []byte) {
		var in apiextensionsv1.ConversionReview
		if err := json.Unmarshal(body, &in); err != nil || in.Request == nil {
			t.Fatalf("a body that does not decode was answered 200: %v", err)
		}
		var out apiextensionsv1.ConversionReview
		if err := json.Unmarshal(reply, &out); err != nil || out.Response == nil {
			t.Fatalf("reply %s is no ConversionReview with a response (%v)", reply, err)
		}
		r := out.Response
		if r.UID != in.Request.UID {
			t.Fatalf("reply uid %q, want %q", r.UID, in.Request.UID)
		}
		if r.Result.Status == "Success" && len(r.ConvertedObjects) != len(in.Request.Objects) {
			t.Fatalf("success with %d objects for %d", len(r.ConvertedObjects), len(in.Request.Objects))
		}
		if r.Result.Status != "Success" && r.Result.Status != "Failure" {
			t.Fatalf("result status %q", r.Result.Status)
		}
	})
}
