// Package schema loads and applies the OpenAPI schemas of one values scope:
// openapi/config-values.yaml (what values.yaml files and the ConfigMap may
// hold) and openapi/values.yaml (the values after hooks' patches), under
// $GLOBAL_HOOKS_DIR/openapi for the global scope and $MODULES_DIR/<module>/openapi
// for a module.
//
// A [Set] is compiled once and owned by the actor of its scope. Compiling
// applies the addon-operator's rules:
//   - additionalProperties: false at the root of a schema that does not set it
//     (nested objects keep the JSON Schema default, so `discovery: {type:
//     object}` accepts any keys, as spec/VALUES.md says);
//   - x-extend in values.yaml pulls definitions, required, properties,
//     patternProperties, title, description and x-* keys from the named schema
//     (config-values.yaml);
//   - x-required-for-helm is merged into required (at every level of
//     properties) in a third schema that is checked only before helm runs.
//
// Passwords lists the paths that either schema marks `format: password`, for
// masking what the operator prints ([Set.Passwords]).
//
// Defaults are applied where a key is absent ([Set.ApplyDefaults]). A
// validation failure is a *[ValidationError] that names the scope, the schema
// file, and for each violation the path inside the values and the rule broken.
package schema
