package objectpatch

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cm := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"}}`
	tests := []struct {
		name  string
		input string
		want  []Operation // compared on Op, target and payload presence
		err   string      // substring of the error; "" is none
	}{
		{name: "empty", input: " \n"},
		{name: "json stream", input: `{"operation":"Create","object":` + cm + "}\n" +
			`{"operation":"Delete","kind":"ConfigMap","namespace":"ns","name":"b"}`,
			want: []Operation{{Op: Create, ObjKind: "ConfigMap", Namespace: "ns", Name: "a", APIVersion: "v1"},
				{Index: 1, Op: Delete, ObjKind: "ConfigMap", Namespace: "ns", Name: "b"}}},
		{name: "yaml documents", input: "operation: DeleteInBackground\nkind: Pod\nname: p\n---\n---\n" +
			"operation: MergePatch\nkind: ConfigMap\nname: c\nmergePatch: '{\"data\":{\"k\":\"v\"}}'\n",
			want: []Operation{{Op: DeleteInBackground, ObjKind: "Pod", Name: "p"},
				{Index: 1, Op: MergePatch, ObjKind: "ConfigMap", Name: "c", MergePatch: []byte(`{"data":{"k":"v"}}`)}}},
		{name: "object as a string", input: `{"operation":"CreateOrUpdate","object":"kind: ConfigMap\napiVersion: v1\nmetadata: {name: s}"}`,
			want: []Operation{{Op: CreateOrUpdate, ObjKind: "ConfigMap", Name: "s", APIVersion: "v1"}}},
		{name: "create with generateName", input: `{"operation":"Create","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"g-"}}}`,
			want: []Operation{{Op: Create, ObjKind: "ConfigMap", APIVersion: "v1"}}},
		{name: "json patch as a string", input: `{"operation":"JSONPatch","kind":"ConfigMap","name":"c","jsonPatch":"[{\"op\":\"remove\",\"path\":\"/data/k\"}]"}`,
			want: []Operation{{Op: JSONPatch, ObjKind: "ConfigMap", Name: "c", JSONPatch: []byte(`[{"op":"remove","path":"/data/k"}]`)}}},
		{name: "jq patch on status", input: `{"operation":"JQPatch","kind":"Deployment","name":"d","subresource":"status","jqFilter":".status.replicas = 3","ignoreMissingObject":true}`,
			want: []Operation{{Op: JQPatch, ObjKind: "Deployment", Name: "d", Subresource: "status", JQFilter: ".status.replicas = 3", IgnoreMissingObject: true}}},
		{name: "array", input: ` [{"operation":"Delete"}]`, err: "JSON array is not accepted"},
		{name: "yaml list", input: "- operation: Delete\n", err: "item 0: want an object, got an array"},
		{name: "unknown key", input: `{"operation":"Delete","kind":"Pod","name":"p"}{"operation":"Delete","kind":"Pod","name":"p","spec":1}`,
			err: `item 1: unknown field "spec"`},
		{name: "no operation", input: `{"kind":"Pod","name":"p"}`, err: `item 0: field "operation" is required`},
		{name: "unknown operation", input: `{"operation":"Patch","kind":"Pod","name":"p"}`, err: `item 0: field "operation": unknown operation "Patch"`},
		{name: "delete without name", input: `{"operation":"Delete","kind":"Pod"}`, err: `item 0: field "name" is required for Delete`},
		{name: "patch without kind", input: `{"operation":"MergePatch","name":"p","mergePatch":{"a":1}}`, err: `item 0: field "kind" is required`},
		{name: "create without object", input: `{"operation":"Create"}`, err: `item 0: field "object" is required`},
		{name: "create with empty object", input: `{"operation":"Create","object":{}}`, err: `field "object": the object is empty`},
		{name: "create without name", input: `{"operation":"CreateOrUpdate","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"g-"}}}`,
			err: `metadata.name is required for CreateOrUpdate`},
		{name: "create without kind", input: `{"operation":"Create","object":{"apiVersion":"v1","metadata":{"name":"a"}}}`, err: `kind is required`},
		{name: "broken object string", input: `{"operation":"Create","object":"{a: [}"}`, err: `field "object": not YAML or JSON`},
		{name: "jq without filter", input: `{"operation":"JQPatch","kind":"Pod","name":"p"}`, err: `field "jqFilter" is required`},
		{name: "broken jq", input: `{"operation":"JQPatch","kind":"Pod","name":"p","jqFilter":".a = ("}`, err: `item 0: field "jqFilter"`},
		{name: "merge patch array", input: `{"operation":"MergePatch","kind":"Pod","name":"p","mergePatch":[1]}`, err: `field "mergePatch": want an object, got an array`},
		{name: "json patch empty", input: `{"operation":"JSONPatch","kind":"Pod","name":"p","jsonPatch":[]}`, err: `field "jsonPatch": want a non-empty array`},
		{name: "json patch without path", input: `{"operation":"JSONPatch","kind":"Pod","name":"p","jsonPatch":[{"op":"add","value":1}]}`,
			err: `field "jsonPatch": operation 0: path is required`},
		// shell-operator's schema requires value on the first operation of
		// a jsonPatch array (UPSTREAM.md §1.9); a string is not checked.
		{name: "json patch array without value first", input: `{"operation":"JSONPatch","kind":"Pod","name":"p","jsonPatch":[{"op":"remove","path":"/a"}]}`,
			err: `field "jsonPatch": operation 0: value is required`},
		{name: "json patch array without value later", input: `{"operation":"JSONPatch","kind":"ConfigMap","name":"c","jsonPatch":[{"op":"add","path":"/a","value":1},{"op":"remove","path":"/b"}]}`,
			want: []Operation{{Op: JSONPatch, ObjKind: "ConfigMap", Name: "c", JSONPatch: []byte(`[{"op":"add","path":"/a","value":1},{"op":"remove","path":"/b"}]`)}}},
		{name: "json patch array with null value", input: `{"operation":"JSONPatch","kind":"ConfigMap","name":"c","jsonPatch":[{"op":"replace","path":"/a","value":null}]}`,
			want: []Operation{{Op: JSONPatch, ObjKind: "ConfigMap", Name: "c", JSONPatch: []byte(`[{"op":"replace","path":"/a","value":null}]`)}}},
		{name: "wrong type", input: `{"operation":"Delete","kind":"Pod","name":7}`, err: `field "name": want a string, got a number`},
		{name: "wrong bool", input: `{"operation":"Delete","kind":"Pod","name":"p","ignoreMissingObject":"yes"}`, err: `field "ignoreMissingObject": want true or false`},
		{name: "broken json", input: `{"operation":"Delete"`, err: "item 0:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d operations, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				compare(t, got[i], tc.want[i])
			}
		})
	}
}

func compare(t *testing.T, got, want Operation) {
	t.Helper()
	g, w := got, want
	g.Object, w.Object = nil, nil
	if string(g.MergePatch) != string(w.MergePatch) || string(g.JSONPatch) != string(w.JSONPatch) {
		t.Errorf("patch %s %s, want %s %s", g.MergePatch, g.JSONPatch, w.MergePatch, w.JSONPatch)
	}
	g.MergePatch, w.MergePatch, g.JSONPatch, w.JSONPatch = nil, nil, nil, nil
	if g.Index != w.Index || g.Op != w.Op || g.Target() != w.Target() || g.APIVersion != w.APIVersion ||
		g.Subresource != w.Subresource || g.JQFilter != w.JQFilter || g.IgnoreMissingObject != w.IgnoreMissingObject {
		t.Errorf("got %+v, want %+v", g, w)
	}
	if want.Op == Create || want.Op == CreateOrUpdate || want.Op == CreateIfNotExists {
		if got.Object == nil {
			t.Error("no object")
		}
	}
}
