package drift

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// IgnoreAnnotation, set on an object in the chart, lists field paths that others own
// (comma-separated, dotted, e.g. "spec.replicas, spec.template.metadata.annotations");
// those fields and everything under them are never compared or restored.
//
// A path is a dotted path of names (letters, digits, '_' and '-'), each name optionally
// followed by list indexes [0] or quoted keys ["app.kubernetes.io/name"]; a key with other
// characters must be quoted. A comma inside a quoted key does not split the list.
const IgnoreAnnotation = "drift.addon-operator.io/ignore"

// ErrBadIgnorePath is wrapped by the errors of ParseIgnore and ObjectIgnore.
var ErrBadIgnorePath = errors.New("bad ignore path")

// ParseIgnore parses an IgnoreAnnotation value into paths (trimmed, empty parts dropped); it
// returns an error naming the bad part for a path that is not a dotted path with optional
// [index] or ["key"] parts.
func ParseIgnore(value string) ([]string, error) {
	var paths []string
	for _, part := range splitOutsideQuotes(value) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if _, err := parsePath(part); err != nil {
			return nil, err
		}
		paths = append(paths, part)
	}
	return paths, nil
}

// ObjectIgnore returns the paths of the IgnoreAnnotation of a rendered object (none when it
// has no such annotation). Compare reads the annotation itself; this lets a caller report
// a bad one, which makes Compare report no drift for the object.
func ObjectIgnore(rendered map[string]any) ([]string, error) {
	meta, _ := rendered["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	value, ok := annotations[IgnoreAnnotation].(string)
	if !ok {
		return nil, nil
	}
	paths, err := ParseIgnore(value)
	if err != nil {
		return nil, fmt.Errorf("annotation %s: %w", IgnoreAnnotation, err)
	}
	return paths, nil
}

// parseIgnorePaths parses every entry of ignore, each of which may itself list several paths.
func parseIgnorePaths(ignore []string) ([]path, error) {
	var parsed []path
	for _, entry := range ignore {
		parts, err := ParseIgnore(entry)
		if err != nil {
			return nil, err
		}
		for _, part := range parts {
			p, err := parsePath(part)
			if err != nil {
				return nil, err
			}
			parsed = append(parsed, p)
		}
	}
	return parsed, nil
}

// splitOutsideQuotes splits s at the commas that are not inside a "quoted" key.
func splitOutsideQuotes(s string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == ',':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// parsePath parses one trimmed ignore path.
func parsePath(s string) (path, error) {
	var p path
	for pos := 0; pos < len(s); {
		var (
			next step
			n    int
			err  error
		)
		switch {
		case s[pos] == '[':
			next, n, err = parseBracket(s[pos:])
		case pos == 0 || s[pos] == '.':
			next, n, err = parseName(s[pos:], pos > 0)
		default:
			err = fmt.Errorf("want '.' or '['")
		}
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v at byte %d", ErrBadIgnorePath, s, err, pos)
		}
		p, pos = append(p, next), pos+n
	}
	return p, nil
}

// parseName parses a name at the start of s, after a dot when dotted.
func parseName(s string, dotted bool) (step, int, error) {
	skip := 0
	if dotted {
		skip = 1
	}
	n := nameLen(s[skip:])
	if n == 0 {
		return step{}, 0, fmt.Errorf("want a name (letters, digits, '_', '-') or a [\"quoted\"] key")
	}
	return step{key: s[skip : skip+n]}, skip + n, nil
}

// parseBracket parses [index] or ["key"] at the start of s.
func parseBracket(s string) (step, int, error) {
	end := strings.IndexByte(s, ']')
	if len(s) > 1 && s[1] == '"' {
		quoted, err := strconv.QuotedPrefix(s[1:])
		if err != nil {
			return step{}, 0, fmt.Errorf("unterminated quoted key")
		}
		key, _ := strconv.Unquote(quoted)
		end = 1 + len(quoted)
		if end >= len(s) || s[end] != ']' {
			return step{}, 0, fmt.Errorf("want ']' after the quoted key")
		}
		return step{key: key}, end + 1, nil
	}
	if end < 0 {
		return step{}, 0, fmt.Errorf("want ']'")
	}
	index, err := strconv.Atoi(s[1:end])
	if err != nil || index < 0 || s[1] == '+' {
		return step{}, 0, fmt.Errorf("want a list index or a quoted key inside []")
	}
	return step{index: index, isIndex: true}, end + 1, nil
}
