package valuestest

import (
	"encoding/json"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// Marshal returns v as JSON text.
func Marshal(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// Patch decodes s as a JSON patch (jsonpatch.DecodePatch).
func Patch(t testing.TB, s string) jsonpatch.Patch {
	t.Helper()
	p, err := jsonpatch.DecodePatch([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
