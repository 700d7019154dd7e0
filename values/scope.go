package values

import (
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// Schemas is what a Scope needs of its OpenAPI schemas; *schema.Set (package
// schema) implements it, and a nil *schema.Set has none.
type Schemas interface {
	// ApplyConfigDefaults sets config-values.yaml defaults, in place, where
	// section lacks a key. A section is a map, or a list for a module.
	ApplyConfigDefaults(section any)
	// ApplyDefaults sets the defaults of both schemas, in place, where
	// section lacks a key.
	ApplyDefaults(section any)
	// ValidateConfig checks values.yaml files merged with the ConfigMap.
	ValidateConfig(scope string, section any) error
	// ValidateValues checks the values after in-memory patches.
	ValidateValues(scope string, section any) error
	// ValidateHelm checks the values handed to helm.
	ValidateHelm(scope string, section any) error
}

// Scope is the values of one owner, the global scope or one module: its
// layers and the values they merge into. It is immutable: the With methods
// return a new Scope and leave the receiver as it was, which is also what a
// failed change leaves behind. The sections it returns must not be changed:
// maps for the global scope, a map or a list ([]any) for a module.
type Scope struct {
	label   string // "global" or `module "name"`, for errors
	key     string // "global" or the module's values key
	lists   bool   // a module scope: its section may be a list
	static  any
	config  any
	schemas Schemas
	patches PatchLayer
	values  any
	dynamic map[string]bool
}

// NewGlobalScope builds the global scope from the "global" sections of the
// given values.yaml files (low to high); schemas may be nil.
func NewGlobalScope(schemas Schemas, static ...Sections) (Scope, error) {
	layers := make([]any, 0, len(static))
	for _, s := range static {
		layers = append(layers, s.Global)
	}
	return Scope{label: GlobalKey, key: GlobalKey, static: MergeSections(layers...), schemas: schemas}.WithConfig(nil)
}

// NewModuleScope builds a module's scope from its sections in the given
// values.yaml files, low to high: $MODULES_DIR/values.yaml, then the
// module's own values.yaml. Schemas may be nil.
func NewModuleScope(names Names, schemas Schemas, static ...Sections) (Scope, error) {
	layers := make([]any, 0, len(static))
	for _, s := range static {
		layers = append(layers, s.Modules[names.ValuesKey])
	}
	s := Scope{label: fmt.Sprintf("module %q", names.Name), key: names.ValuesKey, lists: true, schemas: schemas}
	s.static = MergeSections(layers...)
	return s.WithConfig(nil)
}

// WithConfig replaces the ConfigMap layer with section (nil: no section),
// a map, or for a module a list too; it merges over the values.yaml files as
// [MergeSections] says. The merge with config-values.yaml defaults must
// pass config-values.yaml, else the scope stays as it was.
func (s Scope) WithConfig(section any) (Scope, error) {
	section, err := s.section(section)
	if err != nil {
		return s, fmt.Errorf("%s: ConfigMap section: %w", s.label, err)
	}
	section = DeepCopy(section)
	merged := MergeSections(s.static, section)
	s.sch().ApplyConfigDefaults(merged)
	if err := s.sch().ValidateConfig(s.label, merged); err != nil {
		return s, err
	}
	s.sch().ApplyDefaults(merged)
	doc := map[string]any{s.key: merged} // fresh from Merge: patched in place
	if err := s.patches.replay(doc); err != nil {
		return s, fmt.Errorf("%s: %w", s.label, err)
	}
	values, dynamic, err := s.split(doc)
	if err != nil {
		return s, err
	}
	s.config, s.values, s.dynamic = section, values, dynamic
	return s, nil
}

// WithValuesPatch adds a hook's values patch ($VALUES_JSON_PATCH_PATH) to the
// in-memory layer. The values it gives must pass values.yaml, else the scope
// stays as it was and the error fails the hook run. changed tells whether the
// values or the dynamic enabled flags differ from before.
func (s Scope) WithValuesPatch(p jsonpatch.Patch) (next Scope, changed bool, err error) {
	base := MergeSections(s.static, s.config)
	s.sch().ApplyDefaults(base)
	doc := map[string]any{s.key: base} // fresh from Merge: patched in place
	layer, err := s.patches.appendTo(doc, p)
	if err != nil {
		return s, false, fmt.Errorf("%s: values patch: %w", s.label, err)
	}
	values, dynamic, err := s.split(doc)
	if err != nil {
		return s, false, err
	}
	if err := s.sch().ValidateValues(s.label, values); err != nil {
		return s, false, err
	}
	changed = !Equal(values, s.values) || !equalFlags(dynamic, s.dynamic)
	s.patches, s.values, s.dynamic = layer, values, dynamic
	return s, changed, nil
}

// WithConfigPatch applies a hook's config patch ($CONFIG_VALUES_JSON_PATCH_PATH)
// to the ConfigMap layer at once, validated as WithConfig does. The same
// patch goes to the config actor, which writes it to the ConfigMap
// (configmap.ApplyPatch); "xEnabled" keys in it only concern the ConfigMap.
func (s Scope) WithConfigPatch(p jsonpatch.Patch) (Scope, error) {
	doc, err := ApplyPatch(map[string]any{s.key: s.config}, p)
	if err != nil {
		return s, fmt.Errorf("%s: config patch: %w", s.label, err)
	}
	section, err := s.section(doc[s.key])
	if err != nil {
		return s, fmt.Errorf("%s: config patch: /%s: %w", s.label, s.key, err)
	}
	// Enabled keys are the ConfigMap's alone, but a bad one fails the hook
	// here rather than in the config actor's write.
	if _, _, err := s.split(doc); err != nil {
		return s, fmt.Errorf("config patch: %w", err)
	}
	return s.WithConfig(section)
}

// split takes the scope's section and the "xEnabled" flags out of a patched
// document.
func (s Scope) split(doc map[string]any) (any, map[string]bool, error) {
	values, err := s.section(doc[s.key])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: /%s: %w", s.label, s.key, err)
	}
	var dynamic map[string]bool
	for k, v := range doc {
		if k == s.key {
			continue
		}
		module, ok := ModuleKeyOfEnabledKey(k)
		b, isBool := v.(bool)
		if !ok || !isBool {
			return nil, nil, fmt.Errorf("%s: /%s: %w: want an xEnabled key set to true or false, got %s",
				s.label, k, ErrInvalidSection, describe(v))
		}
		if dynamic == nil {
			dynamic = map[string]bool{}
		}
		dynamic[module] = b
	}
	return values, dynamic, nil
}

func equalFlags(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// ValidateForHelm checks the values against values.yaml with
// x-required-for-helm; run it right before helm.
func (s Scope) ValidateForHelm() error {
	return s.sch().ValidateHelm(s.label, s.values)
}

// Key is the root key of the scope's values: "global" or the values key.
func (s Scope) Key() string { return s.key }

// Values is the scope's section after every layer ($VALUES_PATH's part).
func (s Scope) Values() any { return s.values }

// ConfigValues is the scope's ConfigMap section ($CONFIG_VALUES_PATH's part).
func (s Scope) ConfigValues() any { return s.config }

// DynamicEnabled is the "xEnabled" flags that the scope's values patches set
// (global hooks enable modules this way), by values key; the top layer of
// [EnabledByLayers].
func (s Scope) DynamicEnabled() map[string]bool { return s.dynamic }

// Patches is the in-memory layer.
func (s Scope) Patches() PatchLayer { return s.patches }

// Checksum is the checksum of Values.
func (s Scope) Checksum() string { return Checksum(s.values) }

// section checks the kind of a section of this scope: a map (null is an
// empty one), or for a module a list.
func (s Scope) section(v any) (any, error) {
	if s.lists {
		return moduleSection(v)
	}
	return globalSection(v)
}

// sch keeps the zero Scope usable: it has no schemas.
func (s Scope) sch() Schemas {
	if s.schemas == nil {
		return noSchemas{}
	}
	return s.schemas
}

// noSchemas is the Schemas of a scope without OpenAPI files.
type noSchemas struct{}

func (noSchemas) ApplyConfigDefaults(any)          {}
func (noSchemas) ApplyDefaults(any)                {}
func (noSchemas) ValidateConfig(string, any) error { return nil }
func (noSchemas) ValidateValues(string, any) error { return nil }
func (noSchemas) ValidateHelm(string, any) error   { return nil }
