package values

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

func TestPatchLayerRemovesLowerLayerKeys(t *testing.T) {
	base := mustJSON(t, `{"m":{"fromConfig":1,"keep":2}}`)
	layer, got, err := PatchLayer{}.Append(base, mustPatch(t, `[{"op":"remove","path":"/m/fromConfig"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := mustJSON(t, `{"m":{"keep":2}}`); !Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// The lower layer changes (a ConfigMap edit): the removal still holds.
	again, err := layer.Apply(mustJSON(t, `{"m":{"fromConfig":5,"keep":3}}`))
	if err != nil || !Equal(again, mustJSON(t, `{"m":{"keep":3}}`)) {
		t.Fatalf("replay = %v, %v", again, err)
	}
}

func TestPatchLayerDoesNotGrowOnRepeatedSets(t *testing.T) {
	base := mustJSON(t, `{"m":{}}`)
	var layer PatchLayer
	var err error
	for i := 0; i < 100; i++ {
		p := mustPatch(t, fmt.Sprintf(`[{"op":"add","path":"/m/discovered","value":{"n":%d}},
			{"op":"add","path":"/m/discovered/x","value":%d},{"op":"remove","path":"/m/stale"},
			{"op":"replace","path":"/m/discovered/n","value":%d}]`, i, i, i+1))
		if layer, _, err = layer.Append(base, p); err != nil {
			t.Fatal(err)
		}
	}
	if layer.Len() > 4 {
		t.Errorf("layer kept %d operations after 100 identical runs: %v", layer.Len(), layer.Operations())
	}
	got, _ := layer.Apply(base)
	if want := mustJSON(t, `{"m":{"discovered":{"n":100,"x":99}}}`); !Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPatchLayerFailedAppendKeepsLayer(t *testing.T) {
	base := mustJSON(t, `{"m":{}}`)
	layer, _, _ := PatchLayer{}.Append(base, mustPatch(t, `[{"op":"add","path":"/m/a","value":1}]`))
	same, _, err := layer.Append(base, mustPatch(t, `[{"op":"add","path":"/m/b","value":1},{"op":"replace","path":"/m/zz","value":1}]`))
	if err == nil {
		t.Fatal("want an error")
	}
	if same.Len() != 1 {
		t.Errorf("failed append changed the layer: %v", same.Operations())
	}
}

// TestPatchLayerCompactionKeepsResults checks, on random hook runs, that the
// compacted layer gives what replaying every accepted operation gives, also
// over a lower layer whose leaf values changed.
func TestPatchLayerCompactionKeepsResults(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	base := mustJSON(t, `{"m":{"a":{"b":1},"l":[1,{"x":2}],"c":"s"}}`)
	other := mustJSON(t, `{"m":{"a":{"b":7},"l":[3,{"x":4}],"c":"t"}}`)
	for run := 0; run < 1500; run++ {
		var layer PatchLayer
		var log jsonpatch.Patch
		for hook := 0; hook < 8; hook++ {
			p := randomPatch(t, rng)
			next, _, err := layer.Append(base, p)
			if err != nil {
				continue
			}
			layer, log = next, append(log, p...)
		}
		for _, doc := range []map[string]any{base, other} {
			want, wantErr := PatchLayer{ops: mustDecode(t, log)}.Apply(doc)
			got, err := layer.Apply(doc)
			if (err != nil) != (wantErr != nil) || !Equal(got, want) {
				t.Fatalf("run %d over %v:\nlog %s\nkept %s\ngot %v (%v)\nwant %v (%v)",
					run, doc, show(log), show(layer.Operations()), got, err, want, wantErr)
			}
		}
	}
}

func mustDecode(t *testing.T, p jsonpatch.Patch) []operation {
	ops, err := decodePatch(p)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

func show(p jsonpatch.Patch) string {
	raw, _ := json.Marshal(p)
	return string(raw)
}

func randomPatch(t *testing.T, rng *rand.Rand) jsonpatch.Patch {
	paths := []string{"/m/a", "/m/a/b", "/m/a/c", "/m/n", "/m/n/x", "/m/l/0", "/m/l/1/x", "/m/l/-", "/m/c"}
	values := []string{`1`, `"v"`, `{"b":2}`, `{"x":{}}`, `[1,2]`, `null`}
	kinds := []string{"add", "add", "remove", "replace", "move", "copy"}
	var ops []string
	for n := 1 + rng.Intn(3); n > 0; n-- {
		kind, path := kinds[rng.Intn(len(kinds))], paths[rng.Intn(len(paths))]
		switch kind {
		case "add", "replace":
			ops = append(ops, fmt.Sprintf(`{"op":%q,"path":%q,"value":%s}`, kind, path, values[rng.Intn(len(values))]))
		case "remove":
			ops = append(ops, fmt.Sprintf(`{"op":"remove","path":%q}`, path))
		default:
			ops = append(ops, fmt.Sprintf(`{"op":%q,"from":%q,"path":%q}`, kind, paths[rng.Intn(len(paths)-2)], path))
		}
	}
	raw := "["
	for i, op := range ops {
		if i > 0 {
			raw += ","
		}
		raw += op
	}
	return mustPatch(t, raw+"]")
}
