package values

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePointer splits a JSON pointer (RFC 6901) into unescaped tokens. The
// empty pointer (the whole document) is refused: a patch addresses keys.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, fmt.Errorf("%w: empty path addresses the whole document", ErrInvalidPath)
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("%w: %q must start with \"/\" (a JSON pointer such as %q)",
			ErrInvalidPath, p, suggestPointer(p))
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(t, "~0", ""), "~1", ""), "~") {
			return nil, fmt.Errorf("%w: %q has a \"~\" not followed by 0 or 1", ErrInvalidPath, p)
		}
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}

// suggestPointer guesses the pointer meant by a dotted path such as
// "simpleOneModule.param2", for the error message only.
func suggestPointer(p string) string {
	return "/" + strings.ReplaceAll(strings.TrimPrefix(p, "."), ".", "/")
}

// formatPointer is the inverse of parsePointer.
func formatPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// within reports whether path is inner or equal to prefix.
func within(path, prefix []string) bool {
	if len(path) < len(prefix) {
		return false
	}
	for i := range prefix {
		if path[i] != prefix[i] {
			return false
		}
	}
	return true
}

// indexAt is arrayIndex for the last token of path, its error naming path.
func indexAt(path []string, n int, end bool) (int, error) {
	i, err := arrayIndex(path[len(path)-1], n, end)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", formatPointer(path), err)
	}
	return i, nil
}

// arrayIndex parses an array index token for a list of length n. "-" is the
// end of the list and is allowed only when end is true (add); an index equal
// to n is allowed only then as well.
func arrayIndex(tok string, n int, end bool) (int, error) {
	if tok == "-" {
		if end {
			return n, nil
		}
		return 0, fmt.Errorf("%w: index \"-\" addresses no element", ErrPathNotFound)
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, fmt.Errorf("%w: %q is not an array index", ErrInvalidPath, tok)
	}
	i, err := strconv.Atoi(tok)
	if err != nil {
		return 0, fmt.Errorf("%w: index %q: %v", ErrInvalidPath, tok, err)
	}
	limit := n - 1
	if end {
		limit = n
	}
	if i > limit {
		return 0, fmt.Errorf("%w: index %d is out of range for a list of %d", ErrPathNotFound, i, n)
	}
	return i, nil
}
