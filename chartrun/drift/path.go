package drift

import (
	"strconv"
	"strings"
)

// step is one element of a field path: a map key, or a list index when isIndex.
type step struct {
	key     string
	index   int
	isIndex bool
}

// path locates a field from the object's root. Its methods never modify it in place, so a
// walk can hand the same prefix to every child.
type path []step

func (p path) key(k string) path {
	return append(p[:len(p):len(p)], step{key: k})
}

func (p path) index(i int) path {
	return append(p[:len(p):len(p)], step{index: i, isIndex: true})
}

// token is the step as a JSON pointer reference token, unescaped.
func (s step) token() string {
	if s.isIndex {
		return strconv.Itoa(s.index)
	}
	return s.key
}

// String is the display path: spec.containers[0].image, metadata.labels["app.kubernetes.io/name"].
func (p path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.isIndex:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case !isName(s.key):
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		case i > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// Pointer is the RFC 6901 JSON pointer of the path.
func (p path) Pointer() string {
	var b strings.Builder
	for _, s := range p {
		b.WriteString("/" + escapeToken(s.token()))
	}
	return b.String()
}

func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// under reports whether prefix covers p. Steps match by token, so an ignore path written
// containers.0 covers containers[0] as a JSON pointer would.
func (p path) under(prefix path) bool {
	if len(prefix) > len(p) {
		return false
	}
	for i, s := range prefix {
		if s.token() != p[i].token() {
			return false
		}
	}
	return true
}

// isName reports whether k can be written after a dot in a display or ignore path.
func isName(k string) bool {
	return k != "" && nameLen(k) == len(k)
}

// nameLen is the length of the run of name bytes that s starts with.
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return i
		}
	}
	return len(s)
}
