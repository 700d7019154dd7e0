package hookexec

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors the actors tell apart with errors.Is.
var (
	// ErrHookFailed: the hook exited with a non-zero code (see *ExitError).
	ErrHookFailed = errors.New("hook failed")
	// ErrTimeout: the hook ran past its timeout and was killed.
	ErrTimeout = errors.New("timed out")
	// ErrCanceled: the caller's context ended and the hook was killed.
	ErrCanceled = errors.New("hook run canceled")
	// ErrConfig: the --config output is not a valid binding configuration.
	ErrConfig = errors.New("bad binding configuration")
	// ErrBadPatch: a patch file is not JSON, or an operation is malformed.
	ErrBadPatch = errors.New("bad JSON patch")
	// ErrPatchScope: a patch operation touches a key the hook may not change.
	ErrPatchScope = errors.New("patch outside the hook's values")
	// ErrBadMetrics: a line of the metrics file is not a valid operation.
	ErrBadMetrics = errors.New("bad metrics")
	// ErrBadObjectPatch: the object patch file is malformed (UPSTREAM.md §1.9).
	ErrBadObjectPatch = errors.New("bad object patch")
	// ErrBadEnabledResult: an enabled script wrote neither true nor false.
	ErrBadEnabledResult = errors.New("bad enabled result")
	// ErrOutputTooLarge: the --config output is larger than the limit.
	ErrOutputTooLarge = errors.New("output too large")
)

// StderrTailMark starts the last lines of a hook's stderr that an error
// carries (an *ExitError, a timeout): the text from it on is the hook's
// output, which what an error is shown to beyond the operator's own log
// leaves out.
const StderrTailMark = "; last stderr lines:"

// PublicText is what of an error may be shown beyond the operator's own
// log and debug socket (a TCP port, a Module object's status, an Event):
// its first line, without the hook stderr it may carry. Hooks print values
// to stderr, so their output never leaves through those.
func PublicText(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	line, _, _ = strings.Cut(line, StderrTailMark)
	return strings.TrimRight(line, " \r\t")
}

// ExitError is a hook's non-zero exit, with the last lines of its stderr.
type ExitError struct {
	Hook       string
	Code       int
	StderrTail []string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("hook %s exited with code %d", e.Hook, e.Code)
	if len(e.StderrTail) > 0 {
		msg += StderrTailMark + "\n" + strings.Join(e.StderrTail, "\n")
	}
	return msg
}

// Is makes errors.Is(err, ErrHookFailed) true for an *ExitError.
func (e *ExitError) Is(target error) bool { return target == ErrHookFailed }
