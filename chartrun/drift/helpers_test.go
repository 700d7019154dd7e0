package drift_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

// manifest decodes YAML as a rendered manifest is decoded: numbers are float64.
func manifest(t *testing.T, doc string) map[string]any {
	t.Helper()
	var object map[string]any
	if err := yaml.Unmarshal([]byte(doc), &object); err != nil {
		t.Fatalf("manifest %q: %v", doc, err)
	}
	return object
}

// liveObject decodes YAML as a client decodes the apiserver's JSON into unstructured
// objects (apimachinery's json): whole numbers are int64.
func liveObject(t *testing.T, doc string) map[string]any {
	t.Helper()
	body, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatalf("live object %q: %v", doc, err)
	}
	var object map[string]any
	if err := utiljson.Unmarshal(body, &object); err != nil {
		t.Fatalf("live object %s: %v", body, err)
	}
	return object
}

// want is the part of a Field a table states; Pointer is checked where it is the point.
type want struct {
	path     string
	rendered any
	live     any
	missing  bool
}

func checkFields(t *testing.T, got []drift.Field, wants []want) {
	t.Helper()
	var gotWants []want
	for _, f := range got {
		gotWants = append(gotWants, want{f.Path, f.Rendered, f.Live, f.Missing})
	}
	if !reflect.DeepEqual(gotWants, wants) {
		t.Errorf("fields:\n got %#v\nwant %#v", gotWants, wants)
	}
}

// leaves flattens a JSON-decoded object to its scalar leaves (and empty maps and lists) by
// JSON pointer.
func leaves(v any, at string, out map[string]any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			leaves(e, at+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), out)
		}
		if len(v) > 0 {
			return out
		}
	case []any:
		for i, e := range v {
			leaves(e, at+"/"+strconv.Itoa(i), out)
		}
		if len(v) > 0 {
			return out
		}
	}
	out[at] = v
	return out
}

func under(pointer, prefix string) bool {
	return pointer == prefix || strings.HasPrefix(pointer, prefix+"/")
}

// checkUntouched fails for any leaf of before outside the fields that after changed.
func checkUntouched(t *testing.T, before, after map[string]any, fields []drift.Field) {
	t.Helper()
	afterLeaves := leaves(roundTrip(t, after), "", map[string]any{})
	var changed []string
	for pointer, value := range leaves(roundTrip(t, before), "", map[string]any{}) {
		restored := false
		for _, f := range fields {
			restored = restored || under(pointer, f.Pointer)
		}
		if !restored && !reflect.DeepEqual(afterLeaves[pointer], value) {
			changed = append(changed, pointer)
		}
	}
	sort.Strings(changed)
	if len(changed) > 0 {
		t.Errorf("patch changed fields it does not restore: %v", changed)
	}
}

// roundTrip makes an object's numbers comparable with a patched document's.
func roundTrip(t *testing.T, object map[string]any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
