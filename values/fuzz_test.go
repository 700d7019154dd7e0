package values

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// FuzzApplyPatch: a JSON patch applied to values leaves the input alone,
// gives the same result twice and a JSON document, or fails with one of
// the package's errors; after a patch that ends in an add or replace, a
// test of the same path and value passes.
func FuzzApplyPatch(f *testing.F) {
	for _, seed := range [][2]string{
		{`{}`, `[{"op":"add","path":"/someModule/x","value":1}]`},
		{`{"someModule":null}`, `[{"op":"add","path":"/someModule/a/b","value":{"c":[1,2]}}]`},
		{`{"global":{"a":[1,2,3]}}`, `[{"op":"add","path":"/global/a/-","value":4},{"op":"remove","path":"/global/a/0"}]`},
		{`{"global":{"a":{"b":1}}}`, `[{"op":"move","from":"/global/a","path":"/global/c"},{"op":"copy","from":"/global/c","path":"/global/d"}]`},
		{`{"global":{"a":"x"}}`, `[{"op":"test","path":"/global/a","value":"x"},{"op":"replace","path":"/global/a","value":"y"}]`},
		{`{"global":{"a":"x"}}`, `[{"op":"test","path":"/global/a","value":"z"}]`},
		{`{"m":{"a~b":{"c/d":1}}}`, `[{"op":"replace","path":"/m/a~0b/c~1d","value":2}]`},
		{`{"m":[0]}`, `[{"op":"add","path":"/m/01","value":1}]`},
		{`{}`, `[{"op":"remove","path":"/missing/key"}]`},
		{`{}`, `[{"op":"replace","path":"missing","value":1}]`},
		{`{"a":{"b":{}}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, docJSON, patchJSON []byte) {
		var raw map[string]any
		var patch jsonpatch.Patch
		if json.Unmarshal(docJSON, &raw) != nil || json.Unmarshal(patchJSON, &patch) != nil {
			return
		}
		doc := DeepCopy(raw).(map[string]any)
		out, err := ApplyPatch(doc, patch)
		if !Equal(doc, raw) {
			t.Fatalf("the input changed: %v, was %v", doc, raw)
		}
		if err != nil {
			checkPatchError(t, err)
			return
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("result is not JSON: %v", err)
		}
		if again, err := ApplyPatch(doc, patch); err != nil || !Equal(again, out) {
			t.Fatalf("applied twice: %v (%v), first %v", again, err, out)
		}
		testLastWrite(t, out, patch)
	})
}

// checkPatchError fails unless err wraps an error of the package.
func checkPatchError(t *testing.T, err error) {
	t.Helper()
	for _, e := range []error{ErrInvalidPatch, ErrInvalidPath, ErrPathNotFound, ErrTestFailed} {
		if errors.Is(err, e) {
			return
		}
	}
	t.Fatalf("error %q is none of the package's", err)
}

// testLastWrite: when patch ends in an add or replace of a path that is
// not an append ("/-"), a test of that path and value passes on out.
func testLastWrite(t *testing.T, out map[string]any, patch jsonpatch.Patch) {
	t.Helper()
	if len(patch) == 0 {
		return
	}
	last := patch[len(patch)-1]
	path, err := last.Path()
	if kind := last.Kind(); err != nil || kind != "add" && kind != "replace" || strings.HasSuffix(path, "/-") {
		return
	}
	check := jsonpatch.Patch{{"op": rawJSON("test"), "path": rawJSON(path), "value": last["value"]}}
	if _, err := ApplyPatch(out, check); err != nil {
		t.Fatalf("after %s %s, test of the same value: %v", last.Kind(), path, err)
	}
}
