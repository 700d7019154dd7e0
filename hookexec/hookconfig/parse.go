package hookconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// Parse reads a hook's `--config` output (JSON, or YAML) and returns the
// validated configuration for a hook in scope. The format is v1 when the
// output has `configVersion: v1` and the older form when it has none.
func Parse(data []byte, scope bindings.Scope) (*bindings.Config, error) {
	top, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	version, err := versionOf(top)
	if err != nil {
		return nil, err
	}
	cfg := &bindings.Config{Version: version, Orders: map[bindings.Type]float64{}}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if key == "configVersion" {
			continue
		}
		if err := parseKey(cfg, scope, key, top[key]); err != nil {
			return nil, err
		}
	}
	if err := checkNames(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// decodeTop turns the output into a map of top-level keys to raw JSON. Output
// that looks like JSON is read as JSON first, so that tab-indented JSON (which
// YAML refuses) works and a JSON error reports its own line and column.
func decodeTop(data []byte) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fieldErr("", ErrSyntax, "empty output, want a JSON or YAML object")
	}
	var top map[string]json.RawMessage
	jsonErr := json.Unmarshal(trimmed, &top)
	if jsonErr == nil && top != nil {
		return top, nil
	}
	converted, yamlErr := yaml.YAMLToJSON(trimmed)
	if yamlErr == nil {
		top = nil
		if err := json.Unmarshal(converted, &top); err == nil && top != nil {
			return top, nil
		}
		return nil, fieldErr("", ErrSyntax, "want an object of bindings, got %s", firstLine(trimmed))
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		return nil, fieldErr("", ErrSyntax, "%s", describeJSONError(trimmed, jsonErr))
	}
	return nil, fieldErr("", ErrSyntax, "%v", yamlErr)
}

func versionOf(top map[string]json.RawMessage) (bindings.Version, error) {
	raw, ok := top["configVersion"]
	if !ok {
		return bindings.V0, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fieldErr("configVersion", ErrBadValue, "want a string such as \"v1\", got %s", raw)
	}
	switch v {
	case "v1":
		return bindings.V1, nil
	case "v0", "":
		return bindings.V0, nil
	default:
		return "", fieldErr("configVersion", ErrBadValue, "%q is not supported, want v1 (or no configVersion for the older form)", v)
	}
}

// parseKey parses one top-level key into cfg.
func parseKey(cfg *bindings.Config, scope bindings.Scope, key string, raw json.RawMessage) error {
	t := bindings.Type(key)
	if slices.Contains(bindings.OrderTypes(), t) {
		if err := checkScope(t, scope); err != nil {
			return err
		}
		order, err := parseOrder(key, raw)
		cfg.Orders[t] = order
		return err
	}
	var err error
	switch {
	case t == bindings.Schedule:
		cfg.Schedules, err = parseSchedules(cfg.Version, raw)
	case t == bindings.Kubernetes && cfg.Version == bindings.V1:
		cfg.Kubernetes, err = parseKubernetesV1(raw)
	case t == bindings.OnKubernetesEvent && cfg.Version == bindings.V0:
		cfg.Kubernetes, err = parseKubernetesV0(raw)
	case key == "settings" && cfg.Version == bindings.V1:
		cfg.Settings, err = parseSettings(raw)
	case t == bindings.Validating && cfg.Version == bindings.V1:
		cfg.Validating, err = parseAdmission(key, raw)
	case t == bindings.Mutating && cfg.Version == bindings.V1:
		cfg.Mutating, err = parseAdmission(key, raw)
	case t == bindings.Conversion && cfg.Version == bindings.V1:
		cfg.Conversion, err = parseConversion(raw)
	default:
		return unknownBinding(cfg.Version, key)
	}
	return err
}

func unknownBinding(v bindings.Version, key string) error {
	switch {
	case v == bindings.V0 && v1OnlyKey(key):
		return fieldErr(key, ErrUnknownBinding, "%s needs configVersion: v1", key)
	case v == bindings.V1 && key == string(bindings.OnKubernetesEvent):
		return fieldErr(key, ErrUnknownBinding, "onKubernetesEvent is the older form; with configVersion: v1 use kubernetes")
	}
	return fieldErr(key, ErrUnknownBinding, "%q is no binding type", key)
}

// v1OnlyKey tells the top-level keys that only configVersion: v1 has.
func v1OnlyKey(key string) bool {
	switch bindings.Type(key) {
	case bindings.Kubernetes, bindings.Validating, bindings.Mutating, bindings.Conversion, "settings":
		return true
	}
	return false
}

func checkScope(t bindings.Type, scope bindings.Scope) error {
	switch t {
	case bindings.BeforeAll, bindings.AfterAll:
		if scope != bindings.ScopeGlobal {
			return fieldErr(string(t), ErrWrongScope, "%s is for global hooks only, this is a %s hook", t, scope)
		}
	case bindings.BeforeHelm, bindings.AfterHelm, bindings.BeforeDeleteHelm, bindings.AfterDeleteHelm:
		if scope != bindings.ScopeModule {
			return fieldErr(string(t), ErrWrongScope, "%s is for module hooks only, this is a %s hook", t, scope)
		}
	}
	return nil
}

func parseOrder(key string, raw json.RawMessage) (float64, error) {
	var order float64
	if err := json.Unmarshal(raw, &order); err != nil {
		return 0, fieldErr(key, ErrBadValue, "ORDER must be a number, got %s", raw)
	}
	return order, nil
}

// decodeStrict decodes raw into v, refusing fields v does not have.
func decodeStrict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err != nil {
		if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			path := unknownFieldPath(raw, reflect.TypeOf(v), strings.Trim(key, `"`))
			return fieldErr(path, ErrUnknownField, "no such field")
		}
	}
	return typeError(err)
}

// decodeLoose decodes raw into v, ignoring unknown fields (the older form
// was read that way, and existing hooks may carry extra keys).
func decodeLoose(raw json.RawMessage, v any) error {
	return typeError(json.Unmarshal(raw, v))
}

// typeError turns encoding/json errors into FieldErrors naming the field.
func typeError(err error) error {
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fieldErr(te.Field, ErrSyntax, "want %s, got JSON %s", te.Type, te.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fieldErr(strings.Trim(name, `"`), ErrUnknownField, "no such field")
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return err
	}
	return fieldErr("", ErrSyntax, "%v", err)
}

// decodeList accepts a JSON array of objects, or one object as a list of one.
func decodeList(key string, raw json.RawMessage) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return []json.RawMessage{trimmed}, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(trimmed, &list); err != nil {
		return nil, fieldErr(key, ErrSyntax, "want an array of objects, got %s", firstLine(trimmed))
	}
	return list, nil
}

// rawBinding is one binding's raw form, which converts itself to the
// binding B, naming field in its errors.
type rawBinding[B any] interface {
	binding(field string) (B, error)
}

// parseBindings decodes the binding list under key, each item into a fresh
// R with decode, and converts it; errors name the item (`key[i]`).
func parseBindings[B any, R rawBinding[B]](key string, raw json.RawMessage, decode func(json.RawMessage, any) error) ([]B, error) {
	list, err := decodeList(key, raw)
	if err != nil {
		return nil, err
	}
	out := make([]B, 0, len(list))
	for i, item := range list {
		field := fmt.Sprintf("%s[%d]", key, i)
		var r R
		if err := decode(item, &r); err != nil {
			return nil, at(field, err)
		}
		b, err := r.binding(field)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// checked is a binding read by steps, each a check or the reading of one
// of b's fields, in order: b once every step passed, else the first error.
func checked[B any](b *B, steps ...func() error) (B, error) {
	for _, step := range steps {
		if err := step(); err != nil {
			var none B
			return none, err
		}
	}
	return *b, nil
}

func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, max(se.Offset-1, 0))
		return fmt.Sprintf("line %d column %d: %v", line, col, se)
	}
	return err.Error()
}

// lineCol gives the 1-based line and column of the byte at index pos.
func lineCol(data []byte, pos int64) (line, col int) {
	pos = min(pos, int64(len(data)))
	before := data[:pos]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(pos) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func firstLine(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	const maxShown = 80
	if len(line) > maxShown {
		return string(line[:maxShown]) + "..."
	}
	return string(line)
}
