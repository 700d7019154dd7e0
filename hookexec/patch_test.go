package hookexec

import "testing"

func TestParsePatch(t *testing.T) {
	module := PatchScope{RootKey: "someModule"}
	global := PatchScope{RootKey: "global", AllowEnabledKeys: true}
	cases := []struct {
		name  string
		scope PatchScope
		in    string
		ops   int
		want  error
		text  string
	}{
		{"empty file", module, "", 0, nil, ""},
		{"whitespace", module, " \n", 0, nil, ""},
		{"array", module, `[{"op":"add","path":"/someModule/a","value":1},{"op":"remove","path":"/someModule/b"}]`, 2, nil, ""},
		{"stream of objects", module, "{\"op\":\"add\",\"path\":\"/someModule/a\",\"value\":1}\n{\"op\":\"replace\",\"path\":\"/someModule/a\",\"value\":2}\n", 2, nil, ""},
		{"stream of arrays", module, `[{"op":"test","path":"/someModule/a","value":1}] [{"op":"copy","from":"/someModule/a","path":"/someModule/b"}]`, 2, nil, ""},
		{"move inside", module, `[{"op":"move","from":"/someModule/a","path":"/someModule/b"}]`, 1, nil, ""},
		{"whole own key", module, `[{"op":"add","path":"/someModule","value":{}}]`, 1, nil, ""},
		{"escaped key", PatchScope{RootKey: "a/b"}, `[{"op":"add","path":"/a~1b/c","value":1}]`, 1, nil, ""},
		{"global enabled key", global, `[{"op":"add","path":"/someModuleEnabled","value":false}]`, 1, nil, ""},
		{"global values", global, `[{"op":"add","path":"/global/x","value":false}]`, 1, nil, ""},
		{"not json", module, `this is not json`, 0, ErrBadPatch, "operation 0"},
		{"truncated json", module, `[{"op":"add","path":"/someModule/a"`, 0, ErrBadPatch, ""},
		{"number", module, `42`, 0, ErrBadPatch, "array of operations"},
		{"another module", module, `[{"op":"add","path":"/otherModule/a","value":1}]`, 0, ErrPatchScope, "/otherModule/a"},
		{"module touches global", module, `[{"op":"add","path":"/global/a","value":1}]`, 0, ErrPatchScope, "may only change /someModule"},
		{"module sets enabled key", module, `[{"op":"add","path":"/someModuleEnabled","value":true}]`, 0, ErrPatchScope, ""},
		{"global touches module", global, `[{"op":"add","path":"/someModule/a","value":1}]`, 0, ErrPatchScope, "/<module>Enabled"},
		{"enabled key not top-level", global, `[{"op":"add","path":"/xEnabled/y","value":1}]`, 0, ErrPatchScope, ""},
		{"bare Enabled", global, `[{"op":"add","path":"/Enabled","value":1}]`, 0, ErrPatchScope, ""},
		{"move from another key", module, `[{"op":"move","from":"/global/a","path":"/someModule/a"}]`, 0, ErrPatchScope, "from"},
		{"no leading slash (spec/MODULES.md's example)", module, `{"op": "replace", "path":"simpleOneModule.param2", "value":"patchedValue_2"}`, 0, ErrBadPatch, `must start with "/"`},
		{"whole document", module, `[{"op":"replace","path":"","value":{}}]`, 0, ErrPatchScope, "whole values document"},
		{"bad op", module, `[{"op":"merge","path":"/someModule/a","value":1}]`, 0, ErrBadPatch, `"merge"`},
		{"missing op", module, `[{"path":"/someModule/a","value":1}]`, 0, ErrBadPatch, "unknown"},
		{"missing path", module, `[{"op":"remove"}]`, 0, ErrBadPatch, "path"},
		{"missing value", module, `[{"op":"add","path":"/someModule/a"}]`, 0, ErrBadPatch, "no value"},
		{"second op wrong", module, `[{"op":"add","path":"/someModule/a","value":1},{"op":"add","path":"/x","value":1}]`, 0, ErrPatchScope, "operation 1"},
		{"second value wrong", module, "{\"op\":\"add\",\"path\":\"/someModule/a\",\"value\":1}\n{\"op\":\"add\",\"path\":\"/x\",\"value\":1}", 0, ErrPatchScope, "operation 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			patch, err := ParsePatch([]byte(tc.in), tc.scope)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				wantEq(t, "ops", len(patch), tc.ops)
				return
			}
			wantErr(t, err, tc.want, tc.text)
		})
	}
}
