package values

import (
	"errors"
	"fmt"
	"slices"
)

// visitor receives the container holding the addressed place and the last
// token of the path; it returns the container as it is to be stored (a list
// that grows or shrinks is a new slice).
type visitor func(parent any, key string) (any, error)

// walk descends from node to the parent of path's last token and calls visit
// there. keyed reports
// whether every container on the way was an object. A non-nil created makes
// missing or null parents objects, and records the length of the path of the
// first (shallowest) one it made.
func walk(node any, path []string, depth int, created *int, visit visitor) (any, bool, error) {
	if depth == len(path)-1 {
		_, isMap := node.(map[string]any)
		out, err := visit(node, path[depth])
		return out, isMap, err
	}
	head := path[depth]
	switch c := node.(type) {
	case map[string]any:
		child, ok := c[head]
		if !ok || child == nil {
			if created == nil {
				return nil, false, fmt.Errorf("%w: %s does not exist", ErrPathNotFound, formatPointer(path[:depth+1]))
			}
			child = map[string]any{}
			if *created == 0 {
				*created = depth + 1
			}
		}
		out, keyed, err := walk(child, path, depth+1, created, visit)
		if err != nil {
			return nil, false, err
		}
		c[head] = out
		return c, keyed, nil
	case []any:
		i, err := indexAt(path[:depth+1], len(c), false)
		if err != nil {
			return nil, false, err
		}
		out, _, err := walk(c[i], path, depth+1, created, visit)
		if err != nil {
			return nil, false, err
		}
		c[i] = out
		return c, false, nil
	}
	return nil, false, notContainer(path[:depth], node)
}

func notContainer(path []string, node any) error {
	return fmt.Errorf("%w: %s is %s, not an object or a list", ErrPathNotFound, formatPointer(path), describe(node))
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %t", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	}
	return fmt.Sprintf("a %T", v)
}

// add reports, beside keyed, the length of the path of the shallowest parent
// it created (0: none).
func add(doc map[string]any, path []string, value any) (keyed bool, created int, err error) {
	_, keyed, err = walk(doc, path, 0, &created, place(path, true,
		func(c map[string]any, key string) error { c[key] = value; return nil },
		func(c []any, i int) []any { return slices.Insert(c, i, value) }))
	return keyed, created, err
}

// remove deletes the value at path; a missing path is not an error.
func remove(doc map[string]any, path []string) (bool, error) {
	_, keyed, err := walk(doc, path, 0, nil, func(parent any, key string) (any, error) {
		switch c := parent.(type) {
		case map[string]any:
			delete(c, key)
			return c, nil
		case []any:
			i, err := arrayIndex(key, len(c), false)
			if err != nil {
				return nil, err
			}
			return slices.Delete(c, i, i+1), nil
		}
		return nil, notContainer(path[:len(path)-1], parent)
	})
	if errors.Is(err, ErrPathNotFound) {
		return keyed, nil
	}
	return keyed, err
}

func replace(doc map[string]any, path []string, value any) (bool, error) {
	_, keyed, err := walk(doc, path, 0, nil, place(path, false,
		func(c map[string]any, key string) error {
			if _, ok := c[key]; !ok {
				return fmt.Errorf("%w: %s does not exist", ErrPathNotFound, formatPointer(path))
			}
			c[key] = value
			return nil
		},
		func(c []any, i int) []any { c[i] = value; return c }))
	return keyed, err
}

// place is the visitor of an operation on the place that path names:
// inObject changes the object holding it, inList the list (at index i, the
// end allowed when end is set) and returns the list to store.
func place(path []string, end bool, inObject func(c map[string]any, key string) error, inList func(c []any, i int) []any) visitor {
	return func(parent any, key string) (any, error) {
		switch c := parent.(type) {
		case map[string]any:
			if err := inObject(c, key); err != nil {
				return nil, err
			}
			return c, nil
		case []any:
			i, err := indexAt(path, len(c), end)
			if err != nil {
				return nil, err
			}
			return inList(c, i), nil
		}
		return nil, notContainer(path[:len(path)-1], parent)
	}
}

// get returns the value at path.
func get(doc map[string]any, path []string) (any, error) {
	var node any = doc
	for i, tok := range path {
		switch c := node.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("%w: %s does not exist", ErrPathNotFound, formatPointer(path[:i+1]))
			}
			node = v
		case []any:
			idx, err := indexAt(path[:i+1], len(c), false)
			if err != nil {
				return nil, err
			}
			node = c[idx]
		default:
			return nil, notContainer(path[:i], node)
		}
	}
	return node, nil
}

// move reports, as add does, the shallowest parent it created.
func move(doc map[string]any, from, path []string) (int, error) {
	if within(path, from) && len(path) > len(from) {
		return 0, fmt.Errorf("%w: cannot move %s into itself", ErrInvalidPath, formatPointer(from))
	}
	v, err := get(doc, from)
	if err != nil {
		return 0, fmt.Errorf("from: %w", err)
	}
	if _, err := remove(doc, from); err != nil {
		return 0, err
	}
	_, created, err := add(doc, path, v)
	return created, err
}

func copyValue(doc map[string]any, from, path []string) (int, error) {
	v, err := get(doc, from)
	if err != nil {
		return 0, fmt.Errorf("from: %w", err)
	}
	_, created, err := add(doc, path, DeepCopy(v))
	return created, err
}

func test(doc map[string]any, path []string, want any) error {
	got, err := get(doc, path)
	if err != nil {
		return err
	}
	if !Equal(got, want) {
		return fmt.Errorf("%w: %s is %s, want %s", ErrTestFailed, formatPointer(path), describe(got), describe(want))
	}
	return nil
}
