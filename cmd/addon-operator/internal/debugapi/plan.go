package debugapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
)

// Planner answers POST /plan (app.App.Plan).
type Planner func(ctx context.Context, req whatif.Request) (whatif.Plan, error)

// maxPlanBody bounds a plan request: a ConfigMap is at most 1 MiB.
const maxPlanBody = 4 << 20

// handlePlan computes a plan of the candidate configuration in the body
// (whatif.Request); it applies nothing. 200 with the plan, valid or not;
// 400 for a body that is not a request; 500 when the plan could not be
// computed.
func handlePlan(plan Planner) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if plan == nil {
			http.Error(w, "plan is not available", http.StatusNotImplemented)
			return
		}
		var req whatif.Request
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxPlanBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			http.Error(w, fmt.Sprintf("plan request: %v", err), http.StatusBadRequest)
			return
		}
		p, err := plan(r.Context(), req)
		if err != nil {
			http.Error(w, fmt.Sprintf("plan: %v", err), http.StatusInternalServerError)
			return
		}
		write(w, p)
	}
}

// postTimeout bounds a POST (a plan) end to end.
const postTimeout = 5 * time.Minute

// Post sends body (JSON) to path and returns the answer's body.
func (c *Client) Post(ctx context.Context, path string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://operator"+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	// A plan runs enabled scripts and renders charts: it may take longer
	// than a read of published state.
	hc := *c.http
	hc.Timeout = postTimeout
	return c.do(&hc, req, path, func(body []byte) string { return string(bytes.TrimSpace(body)) })
}
