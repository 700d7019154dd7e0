package values

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

func mustPatch(t testing.TB, s string) jsonpatch.Patch {
	t.Helper()
	// Unmarshal rather than jsonpatch.DecodePatch, which refuses some bad
	// operations itself: ApplyPatch must catch them whoever built the patch.
	var p jsonpatch.Patch
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatalf("decode patch %s: %v", s, err)
	}
	return p
}

func mustJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return m
}

func TestApplyPatch(t *testing.T) {
	cases := []struct {
		name, doc, patch, want string
	}{
		{"add to existing object", `{"m":{"a":1}}`, `[{"op":"add","path":"/m/b","value":2}]`, `{"m":{"a":1,"b":2}}`},
		{"add creates the module section", `{}`, `[{"op":"add","path":"/someModule/x","value":1}]`, `{"someModule":{"x":1}}`},
		{"add creates deep parents as objects", `{"m":{}}`, `[{"op":"add","path":"/m/a/0/c","value":1}]`, `{"m":{"a":{"0":{"c":1}}}}`},
		{"add over a null parent", `{"m":{"a":null}}`, `[{"op":"add","path":"/m/a/b","value":1}]`, `{"m":{"a":{"b":1}}}`},
		{"add replaces a value", `{"m":{"a":1}}`, `[{"op":"add","path":"/m/a","value":{"x":[1]}}]`, `{"m":{"a":{"x":[1]}}}`},
		{"add appends to a list", `{"m":{"l":[1]}}`, `[{"op":"add","path":"/m/l/-","value":2}]`, `{"m":{"l":[1,2]}}`},
		{"add inserts into a list", `{"m":{"l":[1,3]}}`, `[{"op":"add","path":"/m/l/1","value":2}]`, `{"m":{"l":[1,2,3]}}`},
		{"remove of a missing key", `{"m":{}}`, `[{"op":"remove","path":"/m/a/b"}]`, `{"m":{}}`},
		{"remove of a missing section", `{}`, `[{"op":"remove","path":"/m/a"}]`, `{}`},
		{"remove out of a list", `{"m":{"l":[1,2,3]}}`, `[{"op":"remove","path":"/m/l/1"}]`, `{"m":{"l":[1,3]}}`},
		{"remove past the end of a list", `{"m":{"l":[1]}}`, `[{"op":"remove","path":"/m/l/5"}]`, `{"m":{"l":[1]}}`},
		{"replace", `{"m":{"a":1}}`, `[{"op":"replace","path":"/m/a","value":"s"}]`, `{"m":{"a":"s"}}`},
		{"move", `{"m":{"a":{"x":1}}}`, `[{"op":"move","from":"/m/a","path":"/m/b/c"}]`, `{"m":{"b":{"c":{"x":1}}}}`},
		{"copy", `{"m":{"a":[1]}}`, `[{"op":"copy","from":"/m/a","path":"/m/b"}]`, `{"m":{"a":[1],"b":[1]}}`},
		{"test passes", `{"m":{"a":1}}`, `[{"op":"test","path":"/m/a","value":1},{"op":"add","path":"/m/b","value":2}]`, `{"m":{"a":1,"b":2}}`},
		{"escaped tokens", `{"m":{}}`, `[{"op":"add","path":"/m/a~1b~0c","value":1}]`, `{"m":{"a/b~c":1}}`},
		{"null value", `{"m":{"a":1}}`, `[{"op":"add","path":"/m/a","value":null}]`, `{"m":{"a":null}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := mustJSON(t, c.doc)
			got, err := ApplyPatch(doc, mustPatch(t, c.patch))
			if err != nil {
				t.Fatal(err)
			}
			if want := mustJSON(t, c.want); !Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			if !Equal(doc, mustJSON(t, c.doc)) {
				t.Error("ApplyPatch changed its input")
			}
		})
	}
}

func TestApplyPatchErrors(t *testing.T) {
	cases := []struct {
		name, doc, patch string
		want             error
		msg              string
	}{
		// spec/MODULES.md writes this patch; a path must be a JSON pointer.
		{"dotted path from MODULES.md", `{"simpleOneModule":{"param2":"x"}}`,
			`[{"op": "replace", "path":"simpleOneModule.param2", "value":"patchedValue_2"}]`,
			ErrInvalidPath, `"simpleOneModule.param2" must start with "/" (a JSON pointer such as "/simpleOneModule/param2")`},
		{"whole document", `{}`, `[{"op":"add","path":"","value":{}}]`, ErrInvalidPath, "whole document"},
		{"bad escape", `{}`, `[{"op":"add","path":"/a~2","value":1}]`, ErrInvalidPath, "~"},
		{"unknown op", `{}`, `[{"op":"merge","path":"/a","value":1}]`, ErrInvalidPatch, `op "merge"`},
		{"add without value", `{}`, `[{"op":"add","path":"/a"}]`, ErrInvalidPatch, "no value"},
		{"replace of a missing key", `{"m":{}}`, `[{"op":"replace","path":"/m/a","value":1}]`, ErrPathNotFound, "/m/a does not exist"},
		{"add through a scalar", `{"m":"false"}`, `[{"op":"add","path":"/m/a","value":1}]`, ErrPathNotFound, `/m is the string "false"`},
		{"add past the end of a list", `{"m":{"l":[]}}`, `[{"op":"add","path":"/m/l/2","value":1}]`, ErrPathNotFound, "out of range"},
		{"list index not a number", `{"m":{"l":[]}}`, `[{"op":"add","path":"/m/l/x","value":1}]`, ErrInvalidPath, "not an array index"},
		{"test fails", `{"m":{"a":1}}`, `[{"op":"test","path":"/m/a","value":2}]`, ErrTestFailed, "is the number 1, want the number 2"},
		{"move from a missing key", `{"m":{}}`, `[{"op":"move","from":"/m/a","path":"/m/b"}]`, ErrPathNotFound, "from"},
		{"move into itself", `{"m":{"a":{}}}`, `[{"op":"move","from":"/m/a","path":"/m/a/b"}]`, ErrInvalidPath, "into itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ApplyPatch(mustJSON(t, c.doc), mustPatch(t, c.patch))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
			if !strings.Contains(err.Error(), "operation 0") {
				t.Errorf("error %q does not name the operation", err)
			}
		})
	}
}

func TestPatchRoots(t *testing.T) {
	roots, err := PatchRoots(mustPatch(t, `[{"op":"add","path":"/global/a","value":1},
		{"op":"copy","from":"/global/a","path":"/xEnabled"},{"op":"remove","path":"/global/b"}]`))
	if err != nil || strings.Join(roots, ",") != "global,xEnabled" {
		t.Errorf("PatchRoots = %v, %v", roots, err)
	}
}
