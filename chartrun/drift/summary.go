package drift

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/addon-actors/addon-operator/values/mask"
)

// maxShown is how many characters of a value Summary shows before it cuts.
const maxShown = 40

// Summary renders fields for a log line or a status: `spec.replicas: 3 → 5 (live)`, one per field, comma-joined, with long values cut.
// A missing field reads `metadata.labels.team: "a" → (missing)`.
//
// What may hold credentials is shown by its mask only (package mask's Drift
// rule): a Secret's data, a ConfigMap's data and binaryData and every
// env[].value read `data.password: (8 bytes, sha256:2bb80d53) → (6 bytes, sha256:…) (live)`,
// and each of secrets (the values of the module's `format: password`
// settings) is masked wherever it shows up, before a long value is cut.
func Summary(fields []Field, secrets mask.Secrets) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Path + ": " + Shown(f, secrets)
	}
	return strings.Join(parts, ", ")
}

// Shown is one field's "rendered → live" part of Summary.
func Shown(f Field, secrets mask.Secrets) string {
	at := pointerSteps(f.Pointer)
	live := "(missing)"
	if !f.Missing {
		live = show(f.Kind, at, f.Live, secrets) + " (live)"
	}
	return show(f.Kind, at, f.Rendered, secrets) + " → " + live
}

// show renders a value as JSON, its sensitive parts masked, a long one
// cut or counted; a value masked whole is its mask.
func show(kind string, at []string, v any, secrets mask.Secrets) string {
	masked := mask.Field(kind, at, v, mask.Drift, secrets)
	if mask.Drift(kind, at) {
		return masked.(string)
	}
	raw, err := json.Marshal(masked)
	s := string(raw)
	if err != nil {
		s = fmt.Sprint(masked)
	}
	if utf8.RuneCountInString(s) <= maxShown {
		return s
	}
	switch v := v.(type) {
	case []any:
		return fmt.Sprintf("[%d items]", len(v))
	case map[string]any:
		return fmt.Sprintf("{%d keys}", len(v))
	}
	return string([]rune(s)[:maxShown]) + "…"
}

// pointerSteps splits an RFC 6901 pointer into its unescaped tokens.
func pointerSteps(pointer string) []string {
	if pointer == "" {
		return nil
	}
	steps := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, s := range steps {
		steps[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return steps
}
