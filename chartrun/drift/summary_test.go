package drift_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

func TestSummary(t *testing.T) {
	long := strings.Repeat("x", 60)
	cases := []struct {
		name   string
		fields []drift.Field
		want   string
	}{
		{"none", nil, ""},
		{"changed", []drift.Field{{Path: "spec.replicas", Rendered: 3.0, Live: int64(5)}}, "spec.replicas: 3 → 5 (live)"},
		{"missing", []drift.Field{{Path: "metadata.labels.team", Rendered: "a", Missing: true}}, `metadata.labels.team: "a" → (missing)`},
		{"several", []drift.Field{
			{Path: "spec.replicas", Rendered: 3.0, Live: int64(5)},
			{Path: "spec.paused", Rendered: false, Live: true},
		}, "spec.replicas: 3 → 5 (live), spec.paused: false → true (live)"},
		{"long string cut", []drift.Field{{Path: "data.x", Rendered: long, Live: "y"}},
			`data.x: "` + strings.Repeat("x", 39) + `… → "y" (live)`},
		{"long list counted", []drift.Field{{Path: "spec.args", Rendered: []any{long}, Live: []any{"a", "b"}}},
			`spec.args: [1 items] → ["a","b"] (live)`},
		{"long map counted", []drift.Field{{Path: "spec.a", Rendered: map[string]any{"k": long}, Live: "text"}},
			`spec.a: {1 keys} → "text" (live)`},
		{"secret", []drift.Field{{Path: "data.password", Rendered: "czNjcmV0", Live: "b3RoZXI=", Secret: true}},
			"data.password: (secret, 6 bytes) → (secret, 5 bytes) (live)"},
		{"secret missing", []drift.Field{{Path: "data.password", Rendered: "czNjcmV0", Missing: true, Secret: true}},
			"data.password: (secret, 6 bytes) → (missing)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := drift.Summary(c.fields); got != c.want {
				t.Errorf("Summary\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// The Secret's content never reaches a summary, neither encoded nor decoded.
func TestSummaryHidesSecrets(t *testing.T) {
	live := liveObject(t, "type: Opaque\ndata: {user: b3RoZXI=}\n")
	summary := drift.Summary(drift.Compare(manifest(t, secret), live, nil))
	for _, content := range []string{"s3cret", "czNjcmV0", "admin", "YWRtaW4=", "other", "b3RoZXI=", "postgres"} {
		if strings.Contains(summary, content) {
			t.Errorf("summary shows %q: %s", content, summary)
		}
	}
	if !strings.Contains(summary, "data.user: (secret, 5 bytes) → (secret, 5 bytes) (live)") {
		t.Errorf("summary: %s", summary)
	}
}
