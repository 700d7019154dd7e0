package mask

import (
	"slices"
	"strconv"
	"strings"
)

// Any is the step of a Path that matches every key of a map and every
// index of a list (additionalProperties, patternProperties, items).
const Any = "*"

// Path locates values inside a values section, one step per map key or
// list level; Any matches every key or index.
type Path []string

// String is the path as "a.b.*.c".
func (p Path) String() string { return strings.Join(p, ".") }

// Paths are the sensitive places of one values section.
type Paths []Path

// matches reports whether the location at is one of the paths.
func (ps Paths) matches(at []string) bool {
	for _, p := range ps {
		if len(p) == len(at) && p.covers(at) {
			return true
		}
	}
	return false
}

// under reports whether some path lies at or below the location at.
func (ps Paths) under(at []string) bool {
	for _, p := range ps {
		if len(p) >= len(at) && Path(p[:len(at)]).covers(at) {
			return true
		}
	}
	return false
}

func (p Path) covers(at []string) bool {
	for i, step := range p {
		if step != Any && step != at[i] {
			return false
		}
	}
	return true
}

// Document returns a copy of doc (a section: maps, lists, scalars) with
// the value at each path replaced by its mask. doc is left as it was.
func (ps Paths) Document(doc any) any { return ps.At(nil, doc) }

// At masks doc as the value found at the location prefix of a section: a
// JSON patch operation's value, say.
func (ps Paths) At(prefix []string, doc any) any {
	if len(ps) == 0 {
		return doc
	}
	return ps.walk(slices.Clip(prefix), doc)
}

func (ps Paths) walk(at []string, v any) any {
	if ps.matches(at) {
		return Value(v)
	}
	if !ps.under(at) {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, child := range v {
			out[k] = ps.walk(append(at, k), child)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, child := range v {
			out[i] = ps.walk(append(at, strconv.Itoa(i)), child)
		}
		return out
	}
	return v
}

// Secrets are the strings found at the paths in doc (a section): the
// values to mask wherever else they show up. Empty strings are left out.
func (ps Paths) Secrets(doc any) Secrets {
	var out Secrets
	ps.collect(nil, doc, &out)
	return out.normal()
}

func (ps Paths) collect(at []string, v any, out *Secrets) {
	if ps.matches(at) {
		if s, ok := v.(string); ok && s != "" {
			*out = append(*out, s)
		}
		return
	}
	if !ps.under(at) {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			ps.collect(append(slices.Clip(at), k), child, out)
		}
	case []any:
		for i, child := range v {
			ps.collect(append(slices.Clip(at), strconv.Itoa(i)), child, out)
		}
	}
}
