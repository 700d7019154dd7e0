package readiness_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

func TestSelector(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string
		ok         bool
	}{
		{"matchLabels", deploy(`"replicas":1,`, ``), "app=web", true},
		{"matchLabels and matchExpressions", `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
			"spec":{"selector":{"matchLabels":{"app":"db"},"matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]},{"key":"canary","operator":"DoesNotExist"}]}}}`,
			"app=db,!canary,tier in (a,b)", true},
		{"DaemonSet", ds(``, ``), "app=agent", true},
		{"Job's generated selector", batchJob(``, ``), "batch.kubernetes.io/controller-uid=5f0c6a8e-2b1d-4e55-8f0a-1c2d3e4f5a6b", true},
		{"no selector", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{}}`, "", false},
		{"empty selector would list every pod", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{}}}`, "", false},
		{"invalid operator", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchExpressions":[{"key":"a","operator":"Near"}]}}}`, "", false},
		{"kind without pods", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"}}}`, "", false},
		{"PVC", pvc(``, "Bound"), "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := readiness.Selector(object(t, tc.body))
			if got != tc.want || ok != tc.ok {
				t.Errorf("Selector = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
