package inspect

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/addon-actors/addon-operator/supervision"
)

type nopInvoker struct{}

func (nopInvoker) InvokeSystemMessage(interface{})          {}
func (nopInvoker) InvokeUserMessage(interface{})            {}
func (nopInvoker) EscalateFailure(interface{}, interface{}) {}

type quiet struct{}

type named struct{ name string }

func (n named) Summary() string { return "run " + n.name }

type chatty struct{ n int }

// Summary is longer than the bound, and a new string each time.
func (c chatty) Summary() string { return strings.Repeat("x", 1000) + string(rune('a'+c.n%26)) }

func newInvoker() (*recordingInvoker, *record) {
	rec := &record{kind: "test", path: "test/actor", length: func() int { return 0 }, alive: func() bool { return true }}
	return &recordingInvoker{MessageInvoker: nopInvoker{}, rec: rec, reg: NewRegistry(supervision.RealClock{})}, rec
}

// retained is the memory the flight recorder holds: the ring itself and
// the strings its entries keep alive.
func retained(r *ring) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := int(unsafe.Sizeof(*r))
	for _, s := range r.slots {
		n += len(s.summary) + len(s.err)
	}
	return n
}

func TestRingHoldsAtMost256AfterAMillionMessages(t *testing.T) {
	inv, rec := newInvoker()
	var after256 int
	for i := range 1_000_000 {
		inv.InvokeUserMessage(chatty{n: i})
		if i == HistorySize-1 {
			after256 = retained(&rec.history)
		}
		if i%4096 == 0 && rec.history.len() > HistorySize {
			t.Fatalf("after %d messages the ring holds %d entries", i+1, rec.history.len())
		}
	}
	if got := rec.history.len(); got != HistorySize {
		t.Fatalf("ring holds %d entries, want %d", got, HistorySize)
	}
	if got := retained(&rec.history); got != after256 {
		t.Fatalf("ring keeps %d bytes after a million messages, %d after 256", got, after256)
	}
	// The bound the README states: the fixed ring plus bounded strings.
	if limit := HistorySize*(72+summaryMax+errorMax) + 64; after256 > limit {
		t.Fatalf("ring keeps %d bytes, over the stated bound %d", after256, limit)
	}
	if s := unsafe.Sizeof(slot{}); s != 72 {
		t.Fatalf("a slot is %d bytes, the README says 72", s)
	}
	last := rec.history.last(1)[0]
	if len(last.summary) != summaryMax || last.typ.String() != "inspect.chatty" {
		t.Fatalf("last entry: summary of %d bytes, type %v", len(last.summary), last.typ)
	}
}

func TestRecordingAllocatesNothing(t *testing.T) {
	inv, _ := newInvoker()
	for name, msg := range map[string]interface{}{"no summary": quiet{}, "summary": named{name: "a"}} {
		// named's Summary builds its string: that allocation is the
		// message's, so the test measures it alone and subtracts it.
		own := testing.AllocsPerRun(1000, func() { summaryOf(msg) })
		got := testing.AllocsPerRun(1000, func() { inv.InvokeUserMessage(msg) })
		if got-own != 0 {
			t.Errorf("%s: recording a message allocates %.1f times (the summary itself %.1f)", name, got, own)
		}
	}
}

func TestBoundedCutsOnARuneAndALine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{"first line\nsecond", "first line"},
		{strings.Repeat("é", 60), strings.Repeat("é", 48)},
	} {
		if got := bounded(c.in, summaryMax); got != c.want {
			t.Errorf("bounded(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
