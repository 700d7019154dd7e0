package hookconfig

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// flexBool is a boolean that also accepts the strings "yes"/"no" and
// "true"/"false": spec/HOOKS.md writes `allowFailure: yes`, and hooks that
// print JSON by hand copy that.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case bool:
		*b = flexBool(x)
		return nil
	case string:
		switch strings.ToLower(x) {
		case "yes", "true", "y", "on":
			*b = true
			return nil
		case "no", "false", "n", "off", "":
			*b = false
			return nil
		}
	}
	// A type error lets encoding/json add the field's path.
	return &json.UnmarshalTypeError{Value: string(data), Type: reflect.TypeFor[bool]()}
}

// boolOr returns *b, or def when the field was absent.
func boolOr(b *flexBool, def bool) bool {
	if b == nil {
		return def
	}
	return bool(*b)
}

// checkCrontab checks a crontab as ParseCrontab reads it. The error names
// the binding when it has a name: a hook's author knows it by its name more
// than by its index.
func checkCrontab(field, binding, crontab string) error {
	of := ""
	if binding != "" {
		of = fmt.Sprintf(" (binding %q)", binding)
	}
	if strings.TrimSpace(crontab) == "" {
		return fieldErr(field, ErrBadCrontab, "crontab is empty%s", of)
	}
	if _, err := ParseCrontab(crontab); err != nil {
		return fieldErr(field, ErrBadCrontab, "%q%s: %v", crontab, of, err)
	}
	return nil
}

// checkJq checks a jqFilter and returns it as the binding keeps it: a
// blank filter is no filter ("").
func checkJq(field, filter string) (string, error) {
	if strings.TrimSpace(filter) == "" {
		return "", nil
	}
	if _, err := CompileJq(filter); err != nil {
		return "", fieldErr(field, ErrBadJqFilter, "%q: %v", filter, err)
	}
	return filter, nil
}

// checkQueueName accepts any printable name without spaces: existing hooks
// use names like "main" and "/modules/foo/bar".
func checkQueueName(field, name string) error {
	const maxLen = 255
	if len(name) > maxLen {
		return fieldErr(field, ErrBadName, "longer than %d characters", maxLen)
	}
	for _, r := range name {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || unicode.IsSpace(r) || r == '"' || r == '\\' {
			return fieldErr(field, ErrBadName, "%q: use printable ASCII without spaces or quotes", name)
		}
	}
	return nil
}

// queueOr validates the queue name and returns the queue it stands for
// (bindings.QueueName: the default queue if empty).
func queueOr(field, name string) (string, error) {
	return bindings.QueueName(name), checkQueueName(field, name)
}

func checkBindingName(field, name string) error {
	for _, r := range name {
		if unicode.IsControl(r) {
			return fieldErr(field, ErrBadName, "%q contains a control character", name)
		}
	}
	return nil
}

type settingsV1 struct {
	ExecutionMinInterval json.RawMessage `json:"executionMinInterval"`
	ExecutionBurst       *int            `json:"executionBurst"`
}

func parseSettings(raw json.RawMessage) (bindings.Settings, error) {
	var s settingsV1
	if err := decodeStrict(raw, &s); err != nil {
		return bindings.Settings{}, at("settings", err)
	}
	var out bindings.Settings
	if len(s.ExecutionMinInterval) > 0 {
		d, err := parseDuration(s.ExecutionMinInterval)
		if err != nil {
			return bindings.Settings{}, fieldErr("settings.executionMinInterval", ErrBadValue, "%v", err)
		}
		out.ExecutionMinInterval = d
	}
	if s.ExecutionBurst != nil {
		if *s.ExecutionBurst < 0 {
			return bindings.Settings{}, fieldErr("settings.executionBurst", ErrBadValue, "must not be negative, got %d", *s.ExecutionBurst)
		}
		out.ExecutionBurst = *s.ExecutionBurst
	}
	return out, nil
}

// parseDuration accepts a Go duration string ("3s") or a number of seconds.
func parseDuration(raw json.RawMessage) (time.Duration, error) {
	var secs float64
	if err := json.Unmarshal(raw, &secs); err == nil {
		if secs < 0 {
			return 0, fmt.Errorf("negative duration %v", secs)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("want a duration such as \"10s\", got %s", raw)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("negative duration %s", s)
	}
	return d, nil
}
