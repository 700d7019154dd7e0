package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/addon-actors/addon-operator/webhook"
)

// Conversion is the conversion server's handler.
func (d *Dispatcher) Conversion() http.Handler { return routes(d.serveConversion) }

// serveConversion routes on the path (the CRD's name) before anything
// else: a CRD no hook converts gets HTTP 500 without its body being read
// (the apiserver fails the conversion, as it would on the Failure reply).
func (d *Dispatcher) serveConversion(w http.ResponseWriter, r *http.Request) {
	crd := strings.TrimPrefix(r.URL.Path, "/")
	bindings, hooks := d.reg.conversion(crd)
	if len(bindings) == 0 {
		d.metrics.errors.WithLabelValues("conversion", "", "", string(webhook.FailureNoHook)).Inc()
		http.Error(w, fmt.Sprintf("handle ConversionReview: no hook found for CRD '%s'", crd), http.StatusInternalServerError)
		return
	}
	body, release, ok := d.enter(w, r, "conversion", d.cfg.ConversionMaxBytes)
	if !ok {
		return
	}
	defer release()
	var in apiextensionsv1.ConversionReview
	if err := decodeReview(body, &in, func() bool { return in.Request != nil }); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), d.cfg.ConversionTimeout)
	defer cancel()
	resp := d.convert(ctx, crd, bindings, hooks, in.Request)
	writeJSON(w, webhook.ConversionReply(&in, resp))
}

func (d *Dispatcher) convert(ctx context.Context, crd string, bindings []webhook.Conversion, hooks map[hookKey]hookChans,
	req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
	groups, err := webhook.PlanConversion(crd, bindings, req.Objects, req.DesiredAPIVersion)
	if err != nil {
		d.metrics.errors.WithLabelValues("conversion", "", "", string(webhook.FailureHook)).Inc()
		d.cfg.Log.Info("webhook conversion failed", "crd", crd, "desired", req.DesiredAPIVersion, "error", err)
		return webhook.ConversionFailure(req.UID, err)
	}
	out := make([]runtime.RawExtension, len(req.Objects))
	for _, g := range groups {
		objs := make([]runtime.RawExtension, len(g.Indexes))
		for i, at := range g.Indexes {
			objs[i] = req.Objects[at]
		}
		for _, step := range g.Steps {
			if objs, err = d.convertStep(ctx, hooks, req, step, objs); err != nil {
				return webhook.ConversionFailure(req.UID, err)
			}
		}
		for i, at := range g.Indexes {
			out[at] = objs[i]
		}
	}
	return webhook.ConversionSuccess(req.UID, out)
}

// convertStep runs one hook of a chain on objs.
func (d *Dispatcher) convertStep(ctx context.Context, hooks map[hookKey]hookChans, req *apiextensionsv1.ConversionRequest,
	s webhook.Step, objs []runtime.RawExtension) ([]runtime.RawExtension, error) {
	start := d.cfg.Now()
	body, err := json.Marshal(apiextensionsv1.ConversionRequest{UID: req.UID, DesiredAPIVersion: req.DesiredAPIVersion, Objects: objs})
	if err != nil {
		return nil, fmt.Errorf("encode conversion request: %w", err)
	}
	file, runErr := run(ctx, hooks[hookKey{s.Binding.Owner, s.Binding.Hook}], func(ctx context.Context) ([]byte, error) {
		return d.cfg.Runner.Convert(ctx, s.Binding, s.From, s.To, body)
	})
	converted, err := webhook.ConvertedObjects(file, runErr, len(objs), req.DesiredAPIVersion)
	failure := webhook.FailureNone
	switch {
	case errors.Is(runErr, context.DeadlineExceeded):
		failure, err = webhook.FailureTimeout, webhook.ConversionTimeoutError(s, d.cfg.ConversionTimeout)
	case runErr != nil:
		failure = webhook.FailureHook
	case err != nil && err.Error() == webhook.MsgConversionEmpty:
		failure = webhook.FailureEmpty
	}
	d.observeConversion(s, start, failure, err, runErr)
	return converted, err
}

func (d *Dispatcher) observeConversion(s webhook.Step, start time.Time, failure webhook.Failure, err, runErr error) {
	labels := []string{"conversion", s.Binding.Owner, s.Binding.Name}
	d.metrics.requests.WithLabelValues(labels...).Inc()
	d.metrics.duration.WithLabelValues(labels...).Observe(d.cfg.Now().Sub(start).Seconds())
	if failure != webhook.FailureNone {
		d.metrics.errors.WithLabelValues(append(labels, string(failure))...).Inc()
	}
	if err == nil {
		return
	}
	d.metrics.denials.WithLabelValues(labels...).Inc()
	attrs := []any{"owner", s.Binding.Owner, "hook", s.Binding.Hook, "binding", s.Binding.Name,
		"from", s.From, "to", s.To, "message", err.Error()}
	if runErr != nil {
		attrs = append(attrs, "error", runErr)
	}
	d.cfg.Log.Info("webhook conversion failed", attrs...)
}
