package drift

// walk compares the manifest's value at a path with the live one; has tells whether the live
// object has the field. missingParents counts the enclosing objects the live object lacks.
// A live null counts as absent: the apiserver keeps no nulls, and a patch may add over one.
func (c *comparer) walk(at path, rendered, live any, has bool, missingParents int) {
	if c.ignored(at) {
		return
	}
	has = has && live != nil
	switch r := rendered.(type) {
	case nil:
		// A manifest null sets nothing.
	case map[string]any:
		c.walkMap(at, r, live, has, missingParents)
	case []any:
		c.walkList(at, r, live, has, missingParents)
	default:
		c.walkScalar(at, r, live, has, missingParents)
	}
}

// walkMap compares the manifest's keys only: the live object's other keys are defaults or
// other owners' fields. A map the live object lacks is walked for the fields it would add.
func (c *comparer) walkMap(at path, rendered map[string]any, live any, has bool, missingParents int) {
	if !has {
		for k, v := range rendered {
			c.walk(at.key(k), v, nil, false, missingParents+1)
		}
		return
	}
	liveMap, ok := live.(map[string]any)
	if !ok {
		if c.setsAny(at, rendered) {
			c.report(Field{Path: at.String(), Pointer: at.Pointer(), Rendered: rendered, Live: live})
		}
		return
	}
	for k, v := range rendered {
		liveValue, has := liveMap[k]
		c.walk(at.key(k), v, liveValue, has, 0)
	}
}

// setsAny reports whether the manifest's map sets a field that an object lacking it would miss.
func (c *comparer) setsAny(at path, rendered map[string]any) bool {
	probe := &comparer{ignore: c.ignore}
	probe.walkMap(at, rendered, nil, false, 0)
	return len(probe.fields) > 0
}

// walkList compares lists element by element; a list of another length is one drifted field.
func (c *comparer) walkList(at path, rendered []any, live any, has bool, missingParents int) {
	if !has {
		if len(rendered) > 0 {
			c.missing(at, rendered, missingParents)
		}
		return
	}
	liveList, ok := live.([]any)
	if !ok || len(liveList) != len(rendered) {
		c.report(Field{Path: at.String(), Pointer: at.Pointer(), Rendered: rendered, Live: live})
		return
	}
	for i, r := range rendered {
		elementAt := at.index(i)
		if liveList[i] == nil && r != nil && !c.ignored(elementAt) {
			// An "add" at a list index would insert; a null element is replaced instead.
			c.report(Field{Path: elementAt.String(), Pointer: elementAt.Pointer(), Rendered: r})
			continue
		}
		c.walk(elementAt, r, liveList[i], true, 0)
	}
}

// walkScalar compares a string, number or bool. A zero value the live object lacks is not
// drift: the apiserver omits empty fields.
func (c *comparer) walkScalar(at path, rendered, live any, has bool, missingParents int) {
	if !has {
		if !isZero(rendered) {
			c.missing(at, rendered, missingParents)
		}
		return
	}
	equal := scalarEqual
	if c.secret {
		equal = secretEqual
	}
	if !equal(rendered, live) {
		c.report(Field{Path: at.String(), Pointer: at.Pointer(), Rendered: rendered, Live: live})
	}
}

func (c *comparer) missing(at path, rendered any, missingParents int) {
	c.report(Field{Path: at.String(), Pointer: at.Pointer(), Rendered: rendered, Missing: true, MissingParents: missingParents})
}
