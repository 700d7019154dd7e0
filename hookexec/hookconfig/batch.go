package hookconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// ErrBatch: the `hook config` output of a batch hook executable is not
// the module-sdk format (unknown version, not JSON, two readiness hooks).
var ErrBatch = errors.New("bad batch hook config")

// BatchGroup is the group every schedule and kubernetes binding of a batch
// hook is in, as addon-operator puts them: their contexts are Group
// contexts carrying the snapshots of all kubernetes bindings of the hook.
const BatchGroup = "main"

// ReadyKey is the key of a batch executable's readiness hook; it runs with
// `hook ready` instead of `hook run <key>`.
const ReadyKey = "ready"

// BatchHook is one nested hook of a batch executable.
type BatchHook struct {
	// Key is the argument of `hook run`: the 0-based index in `hooks` as a
	// decimal string, or ReadyKey for the readiness hook.
	Key string
	// Name is metadata.name as the executable reports it.
	Name   string
	Config *bindings.Config
}

// BatchConfig is the parsed `hook config` output of a batch executable.
type BatchConfig struct {
	Hooks []BatchHook
	// Readiness is the readiness hook, nil when there is none.
	Readiness *BatchHook
	// HasSettingsCheck is has_settings_check; the operator does not call
	// `hook check` (neither does addon-operator).
	HasSettingsCheck bool
}

type batchConfigRaw struct {
	Version          string            `json:"version"`
	Hooks            []json.RawMessage `json:"hooks"`
	Readiness        json.RawMessage   `json:"readiness"`
	HasSettingsCheck bool              `json:"has_settings_check"`
}

// ParseBatch reads the `hook config` output of a batch hook executable
// (UPSTREAM.md §1.3): the v1 object `{"version":"v1","hooks":[…],
// "readiness":…}` or the older bare array of hook configs. Each hook config
// is converted to the binding model as addon-operator converts it (§1.4)
// and validated as a `configVersion: v1` configuration. Errors name the
// nested hook (`hooks[1] "name"`) and the field.
func ParseBatch(data []byte, scope bindings.Scope) (*BatchConfig, error) {
	raw, err := decodeBatch(data)
	if err != nil {
		return nil, err
	}
	out := &BatchConfig{HasSettingsCheck: raw.HasSettingsCheck}
	for i, item := range raw.Hooks {
		key := strconv.Itoa(i)
		h, err := parseBatchHook(item, scope, key)
		if err != nil {
			return nil, fmt.Errorf("nested hook hooks[%d]%s (key %s): %w", i, quotedName(item), key, err)
		}
		out.Hooks = append(out.Hooks, h)
	}
	if len(bytes.TrimSpace(raw.Readiness)) > 0 && string(bytes.TrimSpace(raw.Readiness)) != "null" {
		h, err := parseBatchHook(raw.Readiness, scope, ReadyKey)
		if err != nil {
			return nil, fmt.Errorf("readiness hook%s: %w", quotedName(raw.Readiness), err)
		}
		out.Readiness = &h
	}
	return out, nil
}

func decodeBatch(data []byte) (batchConfigRaw, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return batchConfigRaw{}, fieldErr("", ErrBatch, "empty output, want the JSON of `hook config`")
	}
	var raw batchConfigRaw
	if trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &raw.Hooks); err != nil {
			return raw, fieldErr("", ErrBatch, "%s", describeJSONError(trimmed, err))
		}
		return raw, nil
	}
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return raw, fieldErr("", ErrBatch, "%s", describeJSONError(trimmed, err))
	}
	if raw.Version != "v1" {
		return raw, fieldErr("version", ErrBatch, "unknown version %q, want v1", raw.Version)
	}
	return raw, nil
}

// quotedName is ` "<metadata.name>"` of a raw hook config, for errors; empty
// when it has none.
func quotedName(item json.RawMessage) string {
	var m struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(item, &m) != nil || m.Metadata.Name == "" {
		return ""
	}
	return fmt.Sprintf(" %q", m.Metadata.Name)
}
