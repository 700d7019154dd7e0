package kube

import (
	"reflect"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

func TestRunJq(t *testing.T) {
	// As unstructured decodes JSON: integers are int64.
	obj := func() map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "a", "generation": int64(3)},
			"spec": map[string]any{"replicas": int64(2), "ports": []any{map[string]any{"port": int64(8080)}}, "ratio": 0.5},
			"data": map[string]any{"n": "abc"}}
	}
	cases := []struct {
		name, filter, want, err string
	}{
		{"int arithmetic", `.spec.replicas + 1`, `3`, ""},
		{"int comparison", `.spec.replicas > 1`, `true`, ""},
		{"int in array", `[.spec.ports[].port | . * 2]`, `[16160]`, ""},
		{"int type", `.metadata.generation | type`, `"number"`, ""},
		{"select on int", `select(.spec.replicas >= 2) | .metadata.name`, `"a"`, ""},
		{"float", `.spec.ratio * 4`, `2`, ""},
		{"several outputs", `.metadata.name, .spec.replicas`, `["a",2]`, ""},
		{"no output", `empty`, `null`, ""},
		{"error", `.data.n | tonumber`, "", `tonumber cannot be applied to "abc"`},
		{"error on int", `.spec.replicas | ascii_downcase`, "", "ascii_downcase cannot be applied to: number (2)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code := compile(t, tc.filter)
			in := obj()
			got, err := runJq(code, in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("runJq = %s, %v; want %s", got, err, tc.want)
			}
			if !reflect.DeepEqual(in, obj()) {
				t.Fatalf("runJq changed its input: %v", in)
			}
		})
	}
}

// A value gojq does not know panics inside gojq; runJq, which runs in
// informer goroutines, returns an error instead.
func TestRunJqPanicIsAnError(t *testing.T) {
	_, err := runJq(compile(t, `.x | type`), map[string]any{"x": struct{}{}})
	if err == nil || !strings.Contains(err.Error(), "jq panicked") {
		t.Fatalf("err = %v, want a recovered panic", err)
	}
}

func compile(t *testing.T, filter string) *gojq.Code {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatal(err)
	}
	return code
}
