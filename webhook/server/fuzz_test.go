package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

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

// review posts body to path (made absolute) and says whether it was
// answered with a review: 200; a refusal (400, a path the server does not
// route, or a redirect to the clean path) is false, any other status
// fails.
func review(t *testing.T, h http.Handler, path string, body []byte) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	if len(path) == 0 || path[0] != '/' {
		path = "/" + path
	}
	rec := post(h, path, body)
	switch rec.Code {
	case http.StatusOK:
		return rec, true
	case http.StatusBadRequest, http.StatusNotFound:
		return rec, false
	case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return rec, false // ServeMux sends a path with "." or ".." segments to its clean form, unread
	}
	t.Fatalf("status %d: %s", rec.Code, rec.Body)
	return rec, false
}

// fuzzDispatcher serves no hooks: every review is decoded and answered
// without a run.
func fuzzDispatcher(f *testing.F) *server.Dispatcher {
	d, err := server.NewDispatcher(server.Config{})
	if err != nil {
		f.Fatal(err)
	}
	return d
}

// FuzzAdmissionReview: any body to any path is a 400, or a 200 whose body
// is an AdmissionReview answering the request's uid (denied: no hook
// serves the path).
func FuzzAdmissionReview(f *testing.F) {
	for _, seed := range []string{seedAdmission, `{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"x"}}`,
		`{"request":null}`, `{"request":{"uid":5}}`, `{}`, `[]`, ``} {
		f.Add("/global/policy.example.com", []byte(seed))
	}
	h := fuzzDispatcher(f).Admission()
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		rec, answered := review(t, h, path, body)
		if !answered {
			return
		}
		var in struct {
			Request struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		_ = json.NewDecoder(bytes.NewReader(body)).Decode(&in) // as the server reads it: trailing data ignored
		var out admissionv1.AdmissionReview
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
			t.Fatalf("reply %s is no AdmissionReview with a response (%v)", rec.Body, err)
		}
		if string(out.Response.UID) != in.Request.UID || out.Response.Allowed {
			t.Fatalf("reply uid %q allowed %v, want %q denied", out.Response.UID, out.Response.Allowed, in.Request.UID)
		}
	})
}

// FuzzConversionReview: any body to any path is a 400, or a 200 whose body
// is a ConversionReview answering the request's uid, failed (no hook
// converts) unless there was nothing to convert.
func FuzzConversionReview(f *testing.F) {
	for _, seed := range []string{seedConversion, `{"request":{"uid":"u","desiredAPIVersion":"example.com/v2","objects":[]}}`,
		`{"request":{"objects":[{}]}}`, `{"request":{"objects":[null,1,"x"]}}`, `{"request":null}`, `{}`, ``} {
		f.Add("/crontabs.example.com", []byte(seed))
	}
	h := fuzzDispatcher(f).Conversion()
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		rec, answered := review(t, h, path, body)
		if !answered {
			return
		}
		var in apiextensionsv1.ConversionReview
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&in); err != nil || in.Request == nil {
			t.Fatalf("a body that does not decode was answered 200: %v", err)
		}
		var out apiextensionsv1.ConversionReview
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
			t.Fatalf("reply %s is no ConversionReview with a response (%v)", rec.Body, err)
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
