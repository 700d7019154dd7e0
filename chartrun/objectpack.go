package chartrun

import (
	"encoding/json"
	"fmt"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// pack is an object's content as the live index keeps it: compact JSON;
// nil (the names index) stays nil.
func pack(body map[string]any) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("pack %v/%v: %w", body["kind"], body["metadata"], err)
	}
	return b, nil
}

// packAll packs a list's objects, by name.
func packAll(listed map[string]map[string]any) (map[string][]byte, error) {
	packed := make(map[string][]byte, len(listed))
	for name, body := range listed {
		b, err := pack(body)
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", name, err)
		}
		packed[name] = b
	}
	return packed, nil
}

// unpack decodes a packed object as the apiserver's client decodes it
// (whole numbers as int64, as unstructured objects have them), so a drift
// check compares the same values it would have compared before; a nil
// (names index) is a nil map.
func unpack(packed []byte) (map[string]any, error) {
	if packed == nil {
		return nil, nil
	}
	var body map[string]any
	if err := utiljson.Unmarshal(packed, &body); err != nil {
		return nil, fmt.Errorf("unpack an indexed object: %w", err)
	}
	return body, nil
}
