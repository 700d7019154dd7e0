package readiness_test

import (
	"encoding/json"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// object decodes a body as the apiserver sends it, so numbers are float64 as in a watch.
func object(t *testing.T, body string) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(body), &obj); err != nil {
		t.Fatalf("test body: %v\n%s", err, body)
	}
	return obj
}

type statusCase struct {
	name string
	body string
	want readiness.Status
}

func runStatusCases(t *testing.T, cases []statusCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := readiness.Of(object(t, tc.body)); got != tc.want {
				t.Errorf("Of:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
