package drift_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/drift"
	"github.com/addon-actors/addon-operator/values/mask"
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
		{"secret", []drift.Field{{Path: "data.password", Pointer: "/data/password", Kind: "Secret", Rendered: "czNjcmV0", Live: "b3RoZXI=", Secret: true}},
			"data.password: " + mask.String("s3cret") + " → " + mask.String("other") + " (live)"},
		{"secret missing", []drift.Field{{Path: "data.password", Pointer: "/data/password", Kind: "Secret", Rendered: "czNjcmV0", Missing: true, Secret: true}},
			"data.password: " + mask.String("s3cret") + " → (missing)"},
		{"configmap data", []drift.Field{{Path: "data.DB_PASSWORD", Pointer: "/data/DB_PASSWORD", Kind: "ConfigMap", Rendered: "a", Live: "b"}},
			"data.DB_PASSWORD: " + mask.String("a") + " → " + mask.String("b") + " (live)"},
		{"env value", []drift.Field{{Path: "spec.containers[0].env[0].value", Pointer: "/spec/containers/0/env/0/value", Kind: "Pod", Rendered: "a", Live: "b"}},
			"spec.containers[0].env[0].value: " + mask.String("a") + " → " + mask.String("b") + " (live)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := drift.Summary(c.fields, nil); got != c.want {
				t.Errorf("Summary\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// The Secret's content never reaches a summary, neither encoded nor decoded.
func TestSummaryHidesSecrets(t *testing.T) {
	live := liveObject(t, "type: Opaque\ndata: {user: b3RoZXI=}\n")
	summary := drift.Summary(drift.Compare(manifest(t, secret), live, nil), nil)
	for _, content := range []string{"s3cret", "czNjcmV0", "admin", "YWRtaW4=", "other", "b3RoZXI=", "postgres"} {
		if strings.Contains(summary, content) {
			t.Errorf("summary shows %q: %s", content, summary)
		}
	}
	if !strings.Contains(summary, "data.user: "+mask.String("admin")+" → "+mask.String("other")+" (live)") {
		t.Errorf("summary: %s", summary)
	}
}

// What credentials live in outside a Secret never reaches a summary either:
// a ConfigMap's data, an env value, and a password setting's value wherever
// the chart put it (before a long value is cut, so no prefix of it shows).
func TestSummaryHidesCredentials(t *testing.T) {
	rendered := manifest(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata:
      annotations: {dsn: "postgres://app:pw-marker-42@db.example.com:5432/app"}
    spec:
      containers:
      - name: web
        env:
        - {name: TOKEN, value: tok-marker-7}
`)
	live := liveObject(t, `spec:
  template:
    metadata:
      annotations: {dsn: "postgres://app:pw-marker-43@db.example.com:5432/app"}
    spec:
      containers:
      - name: web
        env:
        - {name: TOKEN, value: tok-marker-8}
        - {name: EXTRA, value: tok-marker-9}
`)
	summary := drift.Summary(drift.Compare(rendered, live, nil), mask.Secrets{"pw-marker-42", "pw-marker-43"})
	for _, value := range []string{"pw-marker", "tok-marker"} {
		if strings.Contains(summary, value) {
			t.Errorf("summary shows %q: %s", value, summary)
		}
	}
	if !strings.Contains(summary, "(12 bytes, sha256:") {
		t.Errorf("summary does not show the password's mask: %s", summary)
	}
}
