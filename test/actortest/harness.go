package actortest

import (
	"reflect"
	"testing"
)

// Harness drives a pure core the way its shell does, with no process
// started: an event in, the effects out, each written by Describe as a short
// string a test compares with what it expects. Describe returns "" for an
// effect a test leaves out (a Log record, say). State, when set, names
// where the core is in a failure's message.
//
// Each core's tests build one with the core's Step and their describer;
// the stepping, the comparing and the failure message are written once,
// here.
type Harness[E, F any] struct {
	T        testing.TB
	Step     func(E) []F
	Describe func(F) string
	State    func() string
}

// Expect steps ev and fails the test unless the effects, described, are
// want, in order.
func (h Harness[E, F]) Expect(ev E, want ...string) []F {
	h.T.Helper()
	effects := h.Step(ev)
	got := h.Strings(effects)
	if want == nil {
		want = []string{}
	}
	if !reflect.DeepEqual(got, want) {
		where := ""
		if h.State != nil {
			where = " in " + h.State()
		}
		h.T.Fatalf("%T%s: effects\n got  %q\n want %q", ev, where, got, want)
	}
	return effects
}

// Strings describes effects, leaving out those described as "".
func (h Harness[E, F]) Strings(effects []F) []string {
	got := []string{}
	for _, e := range effects {
		if s := h.Describe(e); s != "" {
			got = append(got, s)
		}
	}
	return got
}

// TypeName is an effect's type name, the describer's usual fallback.
func TypeName(v any) string {
	if v == nil {
		return "<nil>"
	}
	return reflect.TypeOf(v).Name()
}
