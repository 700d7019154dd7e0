package actortest_test

import (
	"strconv"
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

type counted struct{ N int }
type quiet struct{}

// recorder is a testing.TB that keeps the failure instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Fatalf(f string, a ...any) { r.failed = f }

func TestHarnessComparesDescribedEffects(t *testing.T) {
	step := func(n int) []any { return []any{counted{n}, quiet{}, counted{n + 1}} }
	describe := func(e any) string {
		if c, ok := e.(counted); ok {
			return actortest.TypeName(c) + " " + strconv.Itoa(c.N)
		}
		return ""
	}
	h := actortest.Harness[int, any]{T: t, Step: step, Describe: describe}
	if got := h.Expect(1, "counted 1", "counted 2"); len(got) != 3 {
		t.Fatalf("Expect returned %d effects, want all 3", len(got))
	}
	rec := &recorder{TB: t}
	h.T = rec
	h.State = func() string { return "phase X" }
	h.Expect(1, "counted 1")
	if rec.failed == "" {
		t.Fatal("a different list of effects did not fail the test")
	}
	rec.failed = ""
	h.Step = func(int) []any { return nil }
	h.Expect(1)
	if rec.failed != "" {
		t.Fatal("no effects and none wanted failed the test")
	}
}
