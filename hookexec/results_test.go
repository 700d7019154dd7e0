package hookexec

import (
	"context"
	"github.com/addon-actors/addon-operator/values/valuestest"
	"testing"
)

// TestRunBadResults: what a hook writes into its output files is checked,
// and the error names the hook file and the file's variable.
func TestRunBadResults(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		want error
		text string
	}{
		{"values patch not json", []string{"PATCH_TEXT=oops"}, ErrBadPatch, "VALUES_JSON_PATCH_PATH"},
		{"values patch of another module", []string{`PATCH_TEXT=[{"op":"add","path":"/otherModule/x","value":1}]`}, ErrPatchScope, "VALUES_JSON_PATCH_PATH"},
		{"config patch of global", []string{`CONFIG_PATCH_TEXT={"op":"add","path":"/global/x","value":1}`}, ErrPatchScope, "CONFIG_VALUES_JSON_PATCH_PATH"},
		{"config patch without slash", []string{`CONFIG_PATCH_TEXT=[{"op":"add","path":"someModule.x","value":1}]`}, ErrBadPatch, "CONFIG_VALUES_JSON_PATCH_PATH"},
		{"metrics not json", []string{"METRICS_TEXT={\"name\":\"a\",\"action\":\"set\",\"value\":1}\nnope"}, ErrBadMetrics, "line 2"},
		{"object patch array", []string{`OBJECT_PATCH_TEXT=[{"operation":"Delete"}]`}, ErrBadObjectPatch, "KUBERNETES_PATCH_PATH: bad object patch: a JSON array"},
		{"object patch bad item", []string{"OBJECT_PATCH_TEXT={\"operation\":\"Delete\",\"kind\":\"Pod\",\"name\":\"p\"}\n{\"operation\":\"Delete\",\"kind\":\"Pod\"}"},
			ErrBadObjectPatch, `item 1: field "name" is required for Delete`},
		{"metrics bad action", []string{`METRICS_TEXT={"name":"a","action":"inc","value":1}`}, ErrBadMetrics, "METRICS_PATH"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv(tc.env...)})
			hook := testHook(t, "patch.sh")
			_, err := r.Run(context.Background(), Request{Hook: hook, Scope: PatchScope{RootKey: "someModule"}})
			wantErr(t, err, tc.want, hook.Path, tc.text)
		})
	}
}

func TestRunEmptyOutputs(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv()})
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "patch.sh"), Scope: PatchScope{RootKey: "someModule"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ValuesPatch != nil || res.ConfigValuesPatch != nil || res.Metrics != nil || res.ObjectPatches != nil {
		t.Errorf("empty files gave %+v", res)
	}
}

func TestParseMetrics(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []MetricOp
		err  string
	}{
		{"empty", "", nil, ""},
		{"set with labels", `{"name":"m","action":"set","value":2,"labels":{"k":"v"}}`, []MetricOp{{Name: "m", Action: MetricSet, Value: 2, Labels: map[string]string{"k": "v"}}}, ""},
		{"add grouped", `{"name":"m","action":"add","value":1,"group":"g"}`, []MetricOp{{Name: "m", Action: MetricAdd, Value: 1, Group: "g"}}, ""},
		{"observe", `{"name":"h","action":"observe","value":0.3,"buckets":[0.1,1,10]}`, []MetricOp{{Name: "h", Action: MetricObserve, Value: 0.3, Buckets: []float64{0.1, 1, 10}}}, ""},
		{"expire", `{"action":"expire","group":"g"}`, []MetricOp{{Action: MetricExpire, Group: "g"}}, ""},
		{"older set form", `{"name":"m","set":5}`, []MetricOp{{Name: "m", Action: MetricSet, Value: 5}}, ""},
		{"older add form", `{"name":"m","add":1}`, []MetricOp{{Name: "m", Action: MetricAdd, Value: 1}}, ""},
		{"several lines", "{\"name\":\"a\",\"action\":\"set\",\"value\":1}\n\n{\"name\":\"b\",\"action\":\"add\",\"value\":2}\n", []MetricOp{{Name: "a", Action: MetricSet, Value: 1}, {Name: "b", Action: MetricAdd, Value: 2}}, ""},
		{"not json", "{\"name\":\"a\",\"action\":\"set\",\"value\":1}\ngarbage", nil, "line 2"},
		{"no name", `{"action":"set","value":1}`, nil, "no name"},
		{"no value", `{"name":"m","action":"add"}`, nil, "numeric value"},
		{"string value", `{"name":"m","action":"set","value":"1"}`, nil, "line 1"},
		{"no action", `{"name":"m","value":1}`, nil, "no action"},
		{"unknown action", `{"name":"m","action":"inc","value":1}`, nil, `"inc"`},
		{"expire without group", `{"action":"expire"}`, nil, "no group"},
		{"buckets on set", `{"name":"m","action":"set","value":1,"buckets":[1]}`, nil, "observe only"},
		{"bad third line", "{\"name\":\"a\",\"set\":1}\n{\"name\":\"b\",\"set\":1}\n{\"name\":\"c\"}", nil, "line 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMetrics([]byte(tc.in))
			if tc.err != "" {
				wantErr(t, err, ErrBadMetrics, tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameJSONValue(t, "metrics", got, valuestest.Marshal(t, tc.want))
		})
	}
}

func TestRunObjectPatches(t *testing.T) {
	stream := "operation: MergePatch\nkind: ConfigMap\nname: a\nmergePatch: {data: {k: v}}\n---\n" +
		"operation: Delete\nkind: ConfigMap\nname: b\n"
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OBJECT_PATCH_TEXT=" + stream)})
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "patch.sh"), Scope: PatchScope{RootKey: "someModule"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ObjectPatches) != 2 || res.ObjectPatches[0].Describe() != "item 0 (MergePatch ConfigMap a)" ||
		res.ObjectPatches[1].Describe() != "item 1 (Delete ConfigMap b)" {
		t.Errorf("object patches %+v", res.ObjectPatches)
	}
}
