package layout

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// yamlReader walks a parsed YAML file, wording its errors with the file, the
// dotted key and the line, as a module author needs to find the mistake.
type yamlReader struct{ file string }

// yamlEntry is one key of a mapping, with its value (aliases resolved).
type yamlEntry struct {
	key   string
	value *yaml.Node
}

func (p yamlReader) errorf(key string, n *yaml.Node, format string, args ...any) error {
	if key == "" {
		key = "top level"
	}
	return fmt.Errorf("%s: %s: %s (line %d)", p.file, key, fmt.Sprintf(format, args...), n.Line)
}

// mapping returns the entries of the mapping n at key, in file order. Null
// is an empty mapping (`requirements:` with nothing under it). A key given
// twice is an error: a decode would silently keep one of the two.
func (p yamlReader) mapping(key string, n *yaml.Node) ([]yamlEntry, error) {
	n = resolveAlias(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(key, n, "want a mapping, got %s", describeNode(n))
	}
	firstLine := map[string]int{}
	entries := make([]yamlEntry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolveAlias(n.Content[i]), resolveAlias(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(key, k, "want a string key, got %s", describeNode(k))
		}
		if line, dup := firstLine[k.Value]; dup {
			return nil, p.errorf(dotted(key, k.Value), k, "given twice, also on line %d", line)
		}
		firstLine[k.Value] = k.Line
		entries = append(entries, yamlEntry{key: k.Value, value: v})
	}
	return entries, nil
}

// eachEntry calls visit with each entry of the mapping n at key, in file
// order, and the entry's dotted key; it stops at the first error.
func (p yamlReader) eachEntry(key string, n *yaml.Node, visit func(e yamlEntry, at string) error) error {
	entries, err := p.mapping(key, n)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := visit(e, dotted(key, e.key)); err != nil {
			return err
		}
	}
	return nil
}

// scalar returns the text of the scalar n at key as written (a number keeps
// its digits: "1.20" is not 1.2); null is "".
func (p yamlReader) scalar(key string, n *yaml.Node) (string, error) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode {
		return "", p.errorf(key, n, "want a string, got %s", describeNode(n))
	}
	if isNull(n) {
		return "", nil
	}
	return n.Value, nil
}

func dotted(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// resolveAlias follows *anchor references to the node they name.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func describeNode(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case isNull(n):
		return "null"
	case n.Kind == yaml.ScalarNode:
		return fmt.Sprintf("%s %q", n.ShortTag(), n.Value)
	}
	return "nothing"
}
