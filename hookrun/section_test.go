package hookrun_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hookrun"
)

// A section is applied with the answer its owner gives: changed when the
// values differ, unchanged for an equal section (our own write's echo), an
// error naming the module for a bad one with the scope kept.
func TestApplySection(t *testing.T) {
	for _, tc := range []struct {
		name     string
		section  any
		changed  bool
		errHas   string
		wantList []any
	}{
		{name: "changed", section: map[string]any{"list": []any{"b"}}, changed: true, wantList: []any{"b"}},
		{name: "echo", section: map[string]any{"list": []any{"a"}}, wantList: []any{"a"}},
		{name: "invalid", section: "not an object", errHas: "demo", wantList: []any{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scope := demoScope(t)
			scope, _ = hookrun.ApplySection(scope, "module/demo", map[string]any{"list": []any{"a"}})
			next, reply := hookrun.ApplySection(scope, "module/demo", tc.section)
			if reply.Owner != "module/demo" || reply.Changed != tc.changed {
				t.Fatalf("reply %+v, want owner module/demo changed %v", reply, tc.changed)
			}
			if (reply.Err == "") != (tc.errHas == "") || !strings.Contains(reply.Err, tc.errHas) {
				t.Fatalf("reply error %q, want one containing %q", reply.Err, tc.errHas)
			}
			got := next.Values().(map[string]any)["list"]
			if !reflect.DeepEqual(got, tc.wantList) {
				t.Fatalf("values list %v, want %v", got, tc.wantList)
			}
		})
	}
}
