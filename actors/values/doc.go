// Package values holds the pure values logic that the global and module actors
// own: module names, the layers of a scope's values, the in-memory patch layer,
// the views that hooks, enabled scripts and helm read, change detection, and
// the parsing of values files into sections. It does no I/O and starts no
// actors; everything here is a function of its arguments.
//
// Values are JSON-compatible documents (map[string]any holding only
// map[string]any, []any, string, float64, bool and nil). Layers, low to high:
//
//	$MODULES_DIR/values.yaml -> module values.yaml -> ConfigMap
//	-> OpenAPI defaults where a key is absent -> in-memory patches from hooks
//
// Maps merge deeply; lists and scalars replace. A [Scope] is one owner's
// values (the global scope or one module) and is an immutable value: every
// change returns a new Scope, so an actor can publish it as a snapshot.
//
// The OpenAPI schemas live in the sub-package schema, and the ConfigMap data
// parser and config-patch writer in the sub-package configmap.
package values
