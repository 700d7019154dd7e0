package hookconfig

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// encoding/json names an unknown field by its key alone, wherever it lies.
// unknownFieldPath finds the key in the document against the type it was
// decoded into, so that an error says `namespace.matchNames`, not
// `matchNames`. It falls back to the bare key.
func unknownFieldPath(raw []byte, t reflect.Type, key string) string {
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return key
	}
	if path, ok := findUnknown(doc, t, key, ""); ok {
		return path
	}
	return key
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// findUnknown walks doc along t and returns the path of the first key named
// key that t has no field for.
func findUnknown(doc any, t reflect.Type, key, path string) (string, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return "", false // decodes itself: json.RawMessage, flexBool
	}
	switch t.Kind() {
	case reflect.Struct:
		return unknownInObject(doc, t, key, path)
	case reflect.Slice, reflect.Array:
		list, _ := doc.([]any)
		for i, item := range list {
			if p, ok := findUnknown(item, t.Elem(), key, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case reflect.Map:
		obj, _ := doc.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if p, ok := findUnknown(obj[k], t.Elem(), key, joinField(path, k)); ok {
				return p, true
			}
		}
	}
	return "", false
}

func unknownInObject(doc any, t reflect.Type, key, path string) (string, bool) {
	obj, _ := doc.(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		f, known := jsonField(t, k)
		if !known {
			if k == key {
				return joinField(path, k), true
			}
			continue
		}
		if p, ok := findUnknown(obj[k], f.Type, key, joinField(path, k)); ok {
			return p, true
		}
	}
	return "", false
}

// jsonField is the field of struct t that encoding/json decodes key into
// (matched without regard to case, as encoding/json does).
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
