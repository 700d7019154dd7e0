package hookexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// FuzzParseMetrics: a metrics file parses into valid operations or an
// ErrBadMetrics naming a line, and the operations, written back as one
// JSON object a line, parse into the same operations.
func FuzzParseMetrics(f *testing.F) {
	for _, seed := range []string{
		"",
		`{"name":"hook_metric","action":"set","value":1,"labels":{"a":"b"}}`,
		`{"name":"c","group":"g","action":"add","value":2.5}` + "\n" + `{"group":"g","action":"expire"}`,
		`{"name":"h","action":"observe","value":0.3,"buckets":[0.1,1,10]}`,
		`{"name":"legacy","set":3}` + "\n" + `{"name":"legacy_counter","add":1}`,
		`{"name":"x","action":"set","value":null}`,
		`{"name":"x","action":"set"} {"name":"y"}`,
		"[]",
		`{"name":"x","action":"set","value":1e400}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, err := ParseMetrics(data)
		if err != nil {
			if !errors.Is(err, ErrBadMetrics) || !strings.Contains(err.Error(), "line ") {
				t.Fatalf("error %q is not an ErrBadMetrics naming a line", err)
			}
			return
		}
		var again bytes.Buffer
		for _, op := range ops {
			checkMetricOp(t, op)
			line, err := json.Marshal(metricJSON(op))
			if err != nil {
				t.Fatalf("encode %+v: %v", op, err)
			}
			again.Write(append(line, '\n'))
		}
		back, err := ParseMetrics(again.Bytes())
		if err != nil {
			t.Fatalf("operations written back do not parse: %v\n%s", err, again.Bytes())
		}
		if len(ops) == 0 && len(back) == 0 {
			return
		}
		if !reflect.DeepEqual(back, ops) {
			t.Fatalf("written back and parsed again:\n%+v\nwant\n%+v", back, ops)
		}
	})
}

// checkMetricOp fails for an operation the parser should have refused.
func checkMetricOp(t *testing.T, op MetricOp) {
	t.Helper()
	switch op.Action {
	case MetricSet, MetricAdd, MetricObserve:
		if op.Name == "" {
			t.Fatalf("%s without a name parsed", op.Action)
		}
	case MetricExpire:
		if op.Group == "" {
			t.Fatal("expire without a group parsed")
		}
	default:
		t.Fatalf("action %q parsed", op.Action)
	}
	if len(op.Buckets) > 0 && op.Action != MetricObserve {
		t.Fatalf("buckets on %s parsed", op.Action)
	}
}

// metricJSON is op as a line of a metrics file.
func metricJSON(op MetricOp) map[string]any {
	line := map[string]any{"name": op.Name, "action": op.Action, "labels": op.Labels, "buckets": op.Buckets, "group": op.Group}
	if op.Action != MetricExpire {
		line["value"] = op.Value
	}
	return line
}

// FuzzParsePatch: a values patch file parses into operations that stay
// in the hook's scope, or fails with ErrBadPatch or ErrPatchScope; the
// operations, written back as one JSON array, parse into the same.
func FuzzParsePatch(f *testing.F) {
	for _, seed := range []string{
		"",
		`[{"op":"add","path":"/someModule/a","value":1}]`,
		`{"op":"remove","path":"/someModule/a"}` + "\n" + `[{"op":"replace","path":"/someModule/b","value":{"c":[1,2]}}]`,
		`[{"op":"move","from":"/someModule/a","path":"/someModule/b"},{"op":"copy","from":"/someModule/b","path":"/someModule/c"}]`,
		`[{"op":"add","path":"/otherModuleEnabled","value":false}]`,
		`[{"op":"test","path":"/someModule/a~1b~0c","value":"x"}]`,
		`[{"op":"add","path":"/global/a","value":1}]`,
		`[{"op":"add","path":"someModule.a","value":1}]`,
		`[{"op":"frob","path":"/someModule"}]`,
		`{"op":"add","path":""}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, global bool) {
		scope := PatchScope{RootKey: "someModule"}
		if global {
			scope = PatchScope{RootKey: "global", AllowEnabledKeys: true}
		}
		patch, err := ParsePatch(data, scope)
		if err != nil {
			if !errors.Is(err, ErrBadPatch) && !errors.Is(err, ErrPatchScope) {
				t.Fatalf("error %q is neither ErrBadPatch nor ErrPatchScope", err)
			}
			return
		}
		for i, op := range patch {
			path, _ := op.Path()
			if checkPath(op.Kind(), "path", path, scope) != nil || !strings.HasPrefix(path, "/") {
				t.Fatalf("operation %d: path %q outside the scope %+v parsed", i, path, scope)
			}
		}
		again, err := json.Marshal(patch)
		if err != nil {
			t.Fatalf("encode the patch: %v", err)
		}
		back, err := ParsePatch(again, scope)
		if err != nil {
			t.Fatalf("the patch written back does not parse: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(decoded(t, back), decoded(t, patch)) {
			t.Fatalf("written back and parsed again:\n%s\nwant\n%s", valuestest.Marshal(t, back), again)
		}
	})
}

// decoded is v through JSON: operations compared by what they say, not
// by their bytes (json.Marshal escapes "&" in a RawMessage, say).
func decoded(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal([]byte(valuestest.Marshal(t, v)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzObjectPatches: an object patch file parses into valid operations or
// an error naming the item; each operation has what its kind needs, and
// the operations, written back as a stream of JSON items, parse into the
// same.
func FuzzObjectPatches(f *testing.F) {
	for _, seed := range []string{
		"",
		`{"operation":"Create","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"},"data":{"k":"v"}}}`,
		`{"operation":"CreateOrUpdate","object":"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n"}`,
		`{"operation":"Delete","kind":"Pod","namespace":"ns","name":"p"}` + "\n" + `{"operation":"DeleteInBackground","apiVersion":"apps/v1","kind":"Deployment","name":"d"}`,
		"operation: JQPatch\nkind: ConfigMap\nname: a\nnamespace: ns\njqFilter: .data.k = \"v2\"\n---\noperation: MergePatch\nkind: ConfigMap\nname: a\nmergePatch:\n  data:\n    k: v3\n",
		`{"operation":"JSONPatch","kind":"Deployment","name":"d","subresource":"status","jsonPatch":[{"op":"replace","path":"/status/replicas","value":1}],"ignoreMissingObject":true}`,
		`{"operation":"MergePatch","kind":"ConfigMap","name":"a","mergePatch":"{\"data\":{\"k\":\"v\"}}"}`,
		`[{"operation":"Delete","kind":"Pod","name":"p"}]`,
		`{"operation":"Frobnicate","kind":"Pod","name":"p"}`,
		`{"operation":"Delete","kind":"Pod","name":"p","unknown":1}`,
		"---\n---\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, err := objectpatch.Parse(data)
		if err != nil {
			if !errors.Is(err, objectpatch.ErrArray) && !strings.HasPrefix(err.Error(), "item ") {
				t.Fatalf("error %q names no item", err)
			}
			return
		}
		var stream bytes.Buffer
		for i, op := range ops {
			checkObjectPatch(t, i, op)
			stream.WriteString(valuestest.Marshal(t, objectPatchItem(op)) + "\n")
		}
		back, err := objectpatch.Parse(stream.Bytes())
		if err != nil {
			t.Fatalf("written back, the operations do not parse: %v\n%s", err, stream.Bytes())
		}
		if want := decoded(t, objectPatchItems(ops)); !reflect.DeepEqual(decoded(t, objectPatchItems(back)), want) {
			t.Fatalf("written back and parsed again:\n%s\nwant\n%s", valuestest.Marshal(t, objectPatchItems(back)), stream.Bytes())
		}
	})
}

// objectPatchItem is op as an item of an object patch file; the patches
// are written as strings, which need not follow the array form's rules.
func objectPatchItem(op objectpatch.Operation) map[string]any {
	item := map[string]any{"operation": op.Op}
	set := func(key, v string) {
		if v != "" {
			item[key] = v
		}
	}
	set("subresource", op.Subresource)
	set("jqFilter", op.JQFilter)
	if op.Object != nil {
		item["object"] = op.Object // the target comes from it
	} else {
		set("apiVersion", op.APIVersion)
		set("kind", op.ObjKind)
		set("namespace", op.Namespace)
		set("name", op.Name)
	}
	set("mergePatch", string(op.MergePatch))
	set("jsonPatch", string(op.JSONPatch))
	if op.IgnoreMissingObject {
		item["ignoreMissingObject"] = true
	}
	if op.IgnoreHookError {
		item["ignoreHookError"] = true
	}
	return item
}

func objectPatchItems(ops []objectpatch.Operation) []map[string]any {
	items := make([]map[string]any, len(ops))
	for i, op := range ops {
		items[i] = objectPatchItem(op)
	}
	return items
}

// checkObjectPatch fails for an operation that lacks what its kind needs.
func checkObjectPatch(t *testing.T, i int, op objectpatch.Operation) {
	t.Helper()
	if op.Index != i {
		t.Fatalf("operation %d has index %d", i, op.Index)
	}
	switch op.Op {
	case objectpatch.Create, objectpatch.CreateIfNotExists, objectpatch.CreateOrUpdate:
		if len(op.Object) == 0 {
			t.Fatalf("%s without an object parsed", op.Describe())
		}
		return
	case objectpatch.Delete, objectpatch.DeleteInBackground, objectpatch.DeleteNonCascading:
	case objectpatch.JQPatch:
		if op.JQFilter == "" {
			t.Fatalf("%s without a filter parsed", op.Describe())
		}
	case objectpatch.MergePatch, objectpatch.JSONPatch:
		if !json.Valid(op.MergePatch) && !json.Valid(op.JSONPatch) {
			t.Fatalf("%s without a valid patch parsed: %q %q", op.Describe(), op.MergePatch, op.JSONPatch)
		}
	default:
		t.Fatalf("operation %q parsed", op.Op)
	}
	if op.ObjKind == "" || op.Name == "" {
		t.Fatalf("%s without kind or name parsed", op.Describe())
	}
}
