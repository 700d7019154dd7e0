package conversion

import (
	"encoding/json"
	"fmt"
)

// Convert converts settings written at version from to the latest
// version, step by step; from 0 is version 1. It returns new settings and
// leaves the given ones as they were. Settings at the latest version, or
// nil, come back as they are. A version the chain does not know, or a
// step that fails, is an error naming the versions and the step's file.
func (c Chain) Convert(from int, settings map[string]any) (map[string]any, error) {
	if from == 0 {
		from = 1
	}
	if !c.Known(from) {
		return nil, fmt.Errorf("%w: version %d is unknown: the latest is %d", ErrConversion, from, c.Latest())
	}
	if settings == nil || from == c.Latest() {
		return settings, nil
	}
	doc, err := jsonCopy(settings)
	if err != nil {
		return nil, err
	}
	for _, s := range c.steps[from-1:] {
		if doc, err = s.run(doc); err != nil {
			return nil, fmt.Errorf("%w from version %d to %d (%s): %v", ErrConversion, s.To-1, s.To, s.File, err)
		}
	}
	return doc, nil
}

// run applies one step: its first output is the settings, null none; an
// error or a value that is not an object fails.
func (s Step) run(doc map[string]any) (map[string]any, error) {
	if doc == nil {
		return nil, nil
	}
	iter := s.program.Run(doc)
	v, ok := iter.Next()
	if !ok {
		return nil, fmt.Errorf("%s: no output", s.source)
	}
	switch x := v.(type) {
	case error:
		return nil, fmt.Errorf("%s: %v", s.source, x)
	case nil:
		return nil, nil
	case map[string]any:
		return x, nil
	}
	return nil, fmt.Errorf("%s: want an object, got %T", s.source, v)
}

// jsonCopy makes settings what gojq takes (float64 numbers, no typed
// slices), sharing nothing with them.
func jsonCopy(settings map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("%w: settings: %v", ErrConversion, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%w: settings: %v", ErrConversion, err)
	}
	return out, nil
}
