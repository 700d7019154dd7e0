package bctx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The binding context types of webhook runs (spec/WEBHOOKS.md §5).
const (
	Validating Type = "Validating"
	Mutating   Type = "Mutating"
	Conversion Type = "Conversion"
)

// ErrBadRequest: the request of a webhook context is not a JSON object.
var ErrBadRequest = errors.New("webhook request is not a JSON object")

// AdmissionContext is the context of a kubernetesValidating (typ
// Validating) or kubernetesMutating (typ Mutating) run:
// `{binding, type, snapshots?, review: {request}}`, with the
// AdmissionReview's request as the apiserver sent it (json.Marshal of an
// admission/v1 AdmissionRequest gives the same fields). Snapshots are
// written when not nil: pass them when the binding has
// includeSnapshotsFrom or a group (bindings.Config.WebhookSnapshotNames).
// As in shell-operator, `review` has no apiVersion or kind.
func AdmissionContext(binding string, typ Type, request json.RawMessage, snapshots Snapshots) (Context, error) {
	if typ != Validating && typ != Mutating {
		return Context{}, fmt.Errorf("admission context of %s: type %q, want Validating or Mutating", binding, typ)
	}
	trimmed := bytes.TrimSpace(request)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return Context{}, fmt.Errorf("admission context of %s: %w", binding, ErrBadRequest)
	}
	return Context{Binding: binding, Type: typ, Request: trimmed, Snapshots: snapshots}, nil
}

// ConversionStep is what a conversion run is asked to do: its binding's
// rule (fromVersion, toVersion) for the objects of request, which may be
// the output of an earlier step toward request.DesiredAPIVersion.
type ConversionStep struct {
	FromVersion string
	ToVersion   string
	Request     ConversionRequest
}

// ConversionRequest is the request of a ConversionReview
// (apiextensions.k8s.io/v1), as plain data: the same JSON.
type ConversionRequest struct {
	UID               string            `json:"uid"`
	DesiredAPIVersion string            `json:"desiredAPIVersion"`
	Objects           []json.RawMessage `json:"objects"`
}

// ConversionContext is the context of a kubernetesCustomResourceConversion
// run: `{binding, type: Conversion, fromVersion, toVersion, snapshots?,
// review: {request: {uid, desiredAPIVersion, objects}}}`. Objects are
// written as they are (raw); none is []. Snapshots as for
// AdmissionContext.
func ConversionContext(binding string, step ConversionStep, snapshots Snapshots) (Context, error) {
	req := step.Request
	if req.Objects == nil {
		req.Objects = []json.RawMessage{}
	}
	data, err := json.Marshal(req)
	if err != nil {
		return Context{}, fmt.Errorf("conversion context of %s: %w", binding, err)
	}
	return Context{Binding: binding, Type: Conversion, FromVersion: step.FromVersion, ToVersion: step.ToVersion,
		Request: data, Snapshots: snapshots}, nil
}
