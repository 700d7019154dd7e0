package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/addon-actors/addon-operator/webhook"
)

// admissionIn is an incoming AdmissionReview (v1 or v1beta1) with its
// request kept as it came, for the hook's binding context.
type admissionIn struct {
	metav1.TypeMeta `json:",inline"`
	Request         json.RawMessage `json:"request,omitempty"`
}

// Admission is the admission server's handler.
func (d *Dispatcher) Admission() http.Handler { return routes(d.serveAdmission) }

// serveAdmission routes on the path before anything else: a path no
// binding is served at gets shell-operator's reply (a review denied with
// code 500 and its words) from the head of the body alone, never more
// than peekBytes of it.
func (d *Dispatcher) serveAdmission(w http.ResponseWriter, r *http.Request) {
	start := d.cfg.Now()
	a, hook, ok := d.reg.admission(r.URL.Path)
	if !ok {
		d.metrics.errors.WithLabelValues("admission", "", "", string(webhook.FailureNoHook)).Inc()
		configurationID, webhookID, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		tm, uid := peekAdmission(r.Body)
		// The rest of the body is not read: close the connection after
		// the reply rather than drain it.
		w.Header().Set("Connection", "close")
		writeJSON(w, webhook.AdmissionReply(&admissionv1.AdmissionReview{TypeMeta: tm}, webhook.AdmissionNoHook(uid, configurationID, webhookID)))
		return
	}
	body, release, ok := d.enter(w, r, "admission", d.cfg.AdmissionMaxBytes)
	if !ok {
		return
	}
	defer release()
	var in admissionIn
	var head struct {
		UID types.UID `json:"uid"`
	}
	err := decodeReview(body, &in, func() bool { return len(in.Request) > 0 && string(in.Request) != "null" })
	if err == nil && json.Unmarshal(in.Request, &head) != nil {
		err = errors.New("Invalid JSON payload") //nolint:staticcheck // shell-operator's words
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp := d.admit(r.Context(), a, hook, head.UID, in.Request, start)
	writeJSON(w, webhook.AdmissionReply(&admissionv1.AdmissionReview{TypeMeta: in.TypeMeta}, resp))
}

func (d *Dispatcher) admit(ctx context.Context, a webhook.Admission, hook hookChans, uid types.UID, request json.RawMessage,
	start time.Time) *admissionv1.AdmissionResponse {
	timeout := time.Duration(a.Timeout()) * time.Second
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	file, err := run(ctx, hook, func(ctx context.Context) ([]byte, error) { return d.cfg.Runner.Admit(ctx, a, request) })
	resp, failure := webhook.AdmissionResponse(uid, file, err)
	if errors.Is(err, context.DeadlineExceeded) {
		resp, failure = webhook.AdmissionTimeout(uid, a, timeout), webhook.FailureTimeout
	}
	d.observeAdmission(a, uid, resp, failure, err, start)
	return resp
}

func (d *Dispatcher) observeAdmission(a webhook.Admission, uid types.UID, resp *admissionv1.AdmissionResponse,
	failure webhook.Failure, runErr error, start time.Time) {
	labels := []string{strings.ToLower(string(a.Kind)), a.Owner, a.Name}
	d.metrics.requests.WithLabelValues(labels...).Inc()
	d.metrics.duration.WithLabelValues(labels...).Observe(d.cfg.Now().Sub(start).Seconds())
	if failure != webhook.FailureNone {
		d.metrics.errors.WithLabelValues(append(labels, string(failure))...).Inc()
	}
	if resp.Allowed {
		return
	}
	d.metrics.denials.WithLabelValues(labels...).Inc()
	attrs := []any{"owner", a.Owner, "hook", a.Hook, "binding", a.Name, "uid", uid}
	if resp.Result != nil {
		attrs = append(attrs, "code", resp.Result.Code, "message", resp.Result.Message)
	}
	if runErr != nil {
		attrs = append(attrs, "error", runErr)
	}
	d.cfg.Log.Info("webhook denied", attrs...)
}
