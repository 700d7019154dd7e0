// Package configmap reads and writes the data of ConfigMap/addon-operator
// for the config actor, in pure functions: [Parse] turns the data into
// values sections, values.Diff tells what an edit changed, and [ApplyPatch]
// writes a hook's config patch into the data, keeping every key it does not
// touch byte for byte.
//
// Data keys are "global", "<moduleValuesKey>" (YAML strings; "false"
// disables the module) and "<moduleValuesKey>Enabled" ("true"/"false").
package configmap
