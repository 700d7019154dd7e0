package drift

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxShown is how many characters of a value Summary shows before it cuts.
const maxShown = 40

// Summary renders fields for a log line or a status: `spec.replicas: 3 → 5 (live)`, one per field, comma-joined, with long values cut.
// A missing field reads `metadata.labels.team: "a" → (missing)`. The data of a Secret is
// shown by length only: `data.password: (secret, 8 bytes) → (secret, 6 bytes) (live)`.
func Summary(fields []Field) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		live := "(missing)"
		if !f.Missing {
			live = show(f.Live, f.Secret) + " (live)"
		}
		parts[i] = fmt.Sprintf("%s: %s → %s", f.Path, show(f.Rendered, f.Secret), live)
	}
	return strings.Join(parts, ", ")
}

// show renders a value as JSON, a long one cut or counted.
func show(v any, secret bool) string {
	if secret {
		return showSecret(v)
	}
	raw, err := json.Marshal(v)
	s := string(raw)
	if err != nil {
		s = fmt.Sprint(v)
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

// showSecret tells the size of a Secret's value and nothing of its content.
func showSecret(v any) string {
	switch v := v.(type) {
	case string:
		if decoded, err := base64.StdEncoding.DecodeString(v); err == nil {
			return fmt.Sprintf("(secret, %d bytes)", len(decoded))
		}
		return fmt.Sprintf("(secret, %d bytes)", len(v))
	case map[string]any:
		return fmt.Sprintf("(secret, %d keys)", len(v))
	}
	return "(secret)"
}
