package mask

import (
	"cmp"
	"slices"
	"strings"
)

// minInside is the shortest secret that is also looked for inside longer
// strings (a password in a connection URL); a shorter one is masked only
// where a whole string equals it, lest every "a" in a manifest be masked.
const minInside = 6

// Secrets are sensitive strings, masked wherever they show up.
type Secrets []string

// With is s and more, without duplicates.
func (s Secrets) With(more ...Secrets) Secrets {
	out := slices.Clone(s)
	for _, m := range more {
		out = append(out, m...)
	}
	return out.normal()
}

// normal sorts the secrets longest first (a secret that contains another
// is replaced first) and drops duplicates and empty strings.
func (s Secrets) normal() Secrets {
	s = slices.DeleteFunc(s, func(v string) bool { return v == "" })
	slices.SortFunc(s, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	return slices.Compact(s)
}

// Text replaces each secret in text by its mask (a short one only when it
// is the whole text).
func (s Secrets) Text(text string) string {
	for _, secret := range s {
		switch {
		case text == secret:
			return String(secret)
		case len(secret) >= minInside && strings.Contains(text, secret):
			text = strings.ReplaceAll(text, secret, String(secret))
		}
	}
	return text
}

// Document returns a copy of doc with Text applied to every string in it
// (map keys are names, not values, and are kept).
func (s Secrets) Document(doc any) any {
	if len(s) == 0 {
		return doc
	}
	switch v := doc.(type) {
	case string:
		return s.Text(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, child := range v {
			out[k] = s.Document(child)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, child := range v {
			out[i] = s.Document(child)
		}
		return out
	}
	return doc
}
