package debugapi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
)

// POST /plan hands the request to the planner and answers its plan; a
// body that is not a plan request is 400 and names what is wrong.
func TestPlanEndpoint(t *testing.T) {
	var got whatif.Request
	planner := func(_ context.Context, req whatif.Request) (whatif.Plan, error) {
		got = req
		if req.Data["fail"] != "" {
			return whatif.Plan{}, errors.New("list releases: cluster unreachable")
		}
		return whatif.Plan{Valid: true, Changed: true, Enabled: []string{"a"}}, nil
	}
	tests := []struct {
		name     string
		planner  debugapi.Planner
		body     string
		status   int
		bodyHas  string
		wantData map[string]string
	}{
		{name: "plan", planner: planner, body: `{"data":{"aEnabled":"true"},"set":["a.x=1"]}`, status: 200,
			bodyHas: `"changed": true`, wantData: map[string]string{"aEnabled": "true"}},
		{name: "not JSON", planner: planner, body: `data: x`, status: 400, bodyHas: "plan request: invalid character"},
		{name: "unknown field", planner: planner, body: `{"dat":{}}`, status: 400, bodyHas: `unknown field "dat"`},
		{name: "planner failed", planner: planner, body: `{"data":{"fail":"1"}}`, status: 500,
			bodyHas: "plan: list releases: cluster unreachable"},
		{name: "no planner", body: `{}`, status: 501, bodyHas: "plan is not available"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got = whatif.Request{}
			h := debugapi.NewHandler(debugapi.Options{Board: board.New(), Plan: tc.planner})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/plan", strings.NewReader(tc.body)))
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != tc.status || !strings.Contains(string(body), tc.bodyHas) {
				t.Fatalf("status %d %s, want %d with %q", rec.Code, body, tc.status, tc.bodyHas)
			}
			if tc.wantData != nil && (got.Data["aEnabled"] != "true" || len(got.Set) != 1) {
				t.Errorf("planner got %+v", got)
			}
		})
	}
}
