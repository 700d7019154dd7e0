package hookconfig

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error from Parse wraps one of them in a *FieldError.
var (
	// ErrSyntax: the output is neither JSON nor YAML, or a field has the
	// wrong JSON type.
	ErrSyntax = errors.New("invalid JSON/YAML")
	// ErrUnknownBinding: a top-level key that is no binding type of the format.
	ErrUnknownBinding = errors.New("unknown binding")
	// ErrUnknownField: a field a v1 binding does not have.
	ErrUnknownField = errors.New("unknown field")
	// ErrWrongScope: a binding that is not allowed for a global or a module hook.
	ErrWrongScope = errors.New("binding not allowed in this scope")
	// ErrBadCrontab: a crontab that robfig/cron cannot parse (5 or 6 fields).
	ErrBadCrontab = errors.New("bad crontab")
	// ErrBadJqFilter: a jqFilter that does not compile.
	ErrBadJqFilter = errors.New("bad jqFilter")
	// ErrBadSelector: a malformed label, field, name or namespace selector.
	ErrBadSelector = errors.New("bad selector")
	// ErrDuplicateName: two bindings with the same explicit name.
	ErrDuplicateName = errors.New("duplicate binding name")
	// ErrBadName: an invalid queue, group or binding name, or a snapshot
	// reference to no kubernetes binding.
	ErrBadName = errors.New("bad name")
	// ErrBadValue: any other invalid value (kind, event, version, order, ...).
	ErrBadValue = errors.New("bad value")
)

// FieldError is a configuration error at a field path such as
// `kubernetes[1].jqFilter`.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

// fieldErr builds a FieldError wrapping the sentinel kind with a detail.
func fieldErr(field string, kind error, format string, args ...any) error {
	detail := fmt.Sprintf(format, args...)
	return &FieldError{Field: field, Err: fmt.Errorf("%w: %s", kind, detail)}
}

// at prefixes a field path to err's path (`kubernetes[1]` + `jqFilter`).
func at(prefix string, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		field := prefix
		if fe.Field != "" {
			field = joinField(prefix, fe.Field)
		}
		return &FieldError{Field: field, Err: fe.Err}
	}
	return &FieldError{Field: prefix, Err: err}
}

func joinField(prefix, field string) string {
	if prefix == "" {
		return field
	}
	if field == "" || field[0] == '[' {
		return prefix + field
	}
	return prefix + "." + field
}
