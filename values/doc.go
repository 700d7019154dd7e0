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
// Maps merge deeply; lists and scalars replace. The global section is a map;
// a module section is a map or a list (spec/MODULES.md), and an empty
// section (absent, null or {}) never hides a list below it (see
// [MergeSections]). Enabled state has its own
// layers (see [EnabledByLayers]): disabled -> $MODULES_DIR/values.yaml ->
// module values.yaml -> ConfigMap -> flags set by global hooks' patches.
//
// Entry points, by caller:
//   - discovery: [ParseModuleDir], [SortModules], [CheckUnique], [ParseValuesFile];
//   - the global and module actors: [NewGlobalScope], [NewModuleScope], and on
//     the returned [Scope]: WithConfig (a ConfigMap change), WithValuesPatch
//     and WithConfigPatch (a hook's results), ValidateForHelm, Checksum,
//     Snapshot; then [GlobalHookInput], [ModuleHookInput] and [HelmValues] for
//     the files a hook, an enabled script or helm read, and [MarshalDocument]
//     to write a hook's (encoding/json's bytes, without boxing and reflecting
//     over global.enabledModules, an [EnabledList], on every run);
//   - the config actor: package configmap (Parse, Cache, ApplyPatch) and [Diff].
//
// A [Scope] is immutable: every change returns a new Scope, and a failed
// change leaves the old one in force, so an actor can publish it as a
// snapshot. Patches follow RFC 6902 except that remove of a missing path is
// not an error and add creates missing parent objects (see [ApplyPatch]).
//
// The OpenAPI schemas live in the sub-package schema.
package values
