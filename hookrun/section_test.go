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
	scope, _ := hookrun.ApplySection(demoScope(t), "module/demo", map[string]any{"list": []any{"a"}})
	apply := func(name string, section any, changed bool, errHas string, wantList ...any) {
		t.Helper()
		next, reply := hookrun.ApplySection(scope, "module/demo", section)
		if reply.Owner != "module/demo" || reply.Changed != changed {
			t.Fatalf("%s: reply %+v, want owner module/demo changed %v", name, reply, changed)
		}
		if (reply.Err == "") != (errHas == "") || !strings.Contains(reply.Err, errHas) {
			t.Fatalf("%s: reply error %q, want one containing %q", name, reply.Err, errHas)
		}
		if got := next.Values().(map[string]any)["list"]; !reflect.DeepEqual(got, wantList) {
			t.Fatalf("%s: values list %v, want %v", name, got, wantList)
		}
	}
	apply("changed", map[string]any{"list": []any{"b"}}, true, "", "b")
	apply("echo", map[string]any{"list": []any{"a"}}, false, "", "a")
	apply("invalid", "not an object", false, "demo", "a")
}
