package values

import "sort"

// Change says what differs between two parses of one source. Only parsed
// values are compared, so formatting, quoting and key order never count.
type Change struct {
	// Global is set when the global section changed.
	Global bool
	// Enabled lists, sorted, the values keys whose say on enabled changed
	// (an "xEnabled" key, or a section turning to or from "false").
	Enabled []string
	// Modules lists, sorted, the values keys whose section changed.
	Modules []string
	// Maintenance lists, sorted, the values keys whose maintenance mode
	// changed.
	Maintenance []string
}

// IsEmpty tells whether nothing changed.
func (c Change) IsEmpty() bool {
	return !c.Global && len(c.Enabled) == 0 && len(c.Modules) == 0 && len(c.Maintenance) == 0
}

// Diff compares two parses of the same source, e.g. the ConfigMap before
// and after an edit: global values changed -> reload all; enabled flags
// changed -> discover modules; only a module's section changed -> run that
// module.
func Diff(before, after Sections) Change {
	c := Change{Global: !sameSection(before.Global, after.Global)}
	for key := range keyUnion(before.Enabled, after.Enabled) {
		b, inBefore := before.Enabled[key]
		a, inAfter := after.Enabled[key]
		if inBefore != inAfter || a != b {
			c.Enabled = append(c.Enabled, key)
		}
	}
	for key := range keyUnion(before.Modules, after.Modules) {
		if !sameSection(before.Modules[key], after.Modules[key]) {
			c.Modules = append(c.Modules, key)
		}
	}
	for key := range keyUnion(before.Maintenance, after.Maintenance) {
		if before.Maintenance[key] != after.Maintenance[key] {
			c.Maintenance = append(c.Maintenance, key)
		}
	}
	sort.Strings(c.Enabled)
	sort.Strings(c.Modules)
	sort.Strings(c.Maintenance)
	return c
}

// sameSection treats an absent section and an empty map alike: both give
// no values. An empty list is a value (it replaces a list below it).
func sameSection(a, b any) bool {
	if emptySection(a) && emptySection(b) {
		return true
	}
	return Equal(a, b)
}

func keyUnion[V any](a, b map[string]V) map[string]struct{} {
	out := make(map[string]struct{}, len(a)+len(b))
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}
