package inspect

import (
	"strings"
	"testing"
	"time"
	"unsafe"
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

// wallClock and handClock are the registry's Clock, real (read like
// supervision.RealClock, through Since) and moved by hand: supervision's
// clocks import this package, so its internal tests cannot use them.
type wallClock struct{}

func (wallClock) Now() time.Time                  { return time.Now() }
func (wallClock) Since(t time.Time) time.Duration { return time.Since(t) }

type handClock struct{ now time.Time }

func (c *handClock) Now() time.Time          { return c.now }
func (c *handClock) Advance(d time.Duration) { c.now = c.now.Add(d) }

func newInvoker() (*recordingInvoker, *record) {
	rec := &record{kind: "test", path: "test/actor", length: func() int { return 0 }, alive: func() bool { return true }}
	return &recordingInvoker{MessageInvoker: nopInvoker{}, rec: rec, reg: NewRegistry(wallClock{})}, rec
}

// retained is the memory the flight recorder holds: the ring itself and
// the strings its entries keep alive.
func retained(r *ring) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := int(unsafe.Sizeof(*r)) + cap(r.slots)*int(unsafe.Sizeof(slot{}))
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
	// The bound docs/USING.md states: the fixed ring plus bounded strings.
	if limit := HistorySize*(72+summaryMax+errorMax) + 48; after256 > limit {
		t.Fatalf("ring keeps %d bytes, over the stated bound %d", after256, limit)
	}
	if s := unsafe.Sizeof(slot{}); s != 72 {
		t.Fatalf("a slot is %d bytes, docs/USING.md says 72", s)
	}
	last := rec.history.last(1)[0]
	if len(last.summary) != summaryMax || last.typ.String() != "inspect.chatty" {
		t.Fatalf("last entry: summary of %d bytes, type %v", len(last.summary), last.typ)
	}
}

func TestRecordingAllocatesNothing(t *testing.T) {
	inv, _ := newInvoker()
	for range HistorySize { // the ring grows to its full size first
		inv.InvokeUserMessage(quiet{})
	}
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

// The ring grows by doubling while it fills, keeping every entry in order.
func TestRingGrowsToItsSizeInOrder(t *testing.T) {
	var r ring
	sizes := map[int]bool{}
	for i := range HistorySize + 10 {
		r.put(slot{start: time.Duration(i)})
		sizes[cap(r.slots)] = true
		if got := r.last(HistorySize); len(got) != min(i+1, HistorySize) || got[len(got)-1].start != time.Duration(i) ||
			got[0].start != time.Duration(max(0, i+1-HistorySize)) {
			t.Fatalf("after %d puts: %d entries from %v to %v", i+1, len(got), got[0].start, got[len(got)-1].start)
		}
	}
	if len(sizes) != 6 || !sizes[firstSlots] || !sizes[HistorySize] || cap(r.slots) != HistorySize {
		t.Fatalf("ring sizes %v, want 8 doubling to 256", sizes)
	}
}

func TestBoundedCutsOnARuneAndALine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{"first line\n  second\n", "first line second"},
		{strings.Repeat("é", 60), strings.Repeat("é", 48)},
	} {
		if got := bounded(c.in, summaryMax); got != c.want {
			t.Errorf("bounded(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// BenchmarkRecordPath is the inspector's whole work for one message on the
// actor's goroutine (mailbox length, start and end times, flight recorder),
// around a handler that does nothing.
func BenchmarkRecordPath(b *testing.B) {
	for name, msg := range map[string]interface{}{"type-only": quiet{}, "constant-summary": constSummary{}} {
		b.Run(name, func(b *testing.B) {
			inv, _ := newInvoker()
			b.ReportAllocs()
			for range b.N {
				inv.InvokeUserMessage(msg)
			}
		})
	}
}

type constSummary struct{}

func (constSummary) Summary() string { return "a task" }

// advancer is a handler that takes a second of the fake clock.
type advancer struct {
	nopInvoker
	clock *handClock
}

func (a advancer) InvokeUserMessage(interface{}) { a.clock.Advance(time.Second) }

// A message already waiting when the previous one ended starts then (one
// clock read per message); one that arrived later starts when taken.
func TestStartIsTheLastEndOnlyWhenTheMessageWasWaiting(t *testing.T) {
	clock := &handClock{now: time.Unix(0, 0)}
	waiting := 1
	rec := &record{kind: "test", path: "test/actor", length: func() int { return waiting }, alive: func() bool { return true }}
	inv := &recordingInvoker{MessageInvoker: advancer{clock: clock}, rec: rec, reg: NewRegistry(clock)}
	inv.InvokeUserMessage(quiet{}) // 0s-1s, another waiting at its end
	clock.Advance(5 * time.Second) // a dispatcher's yield: attributed to the next
	waiting = 0
	inv.InvokeUserMessage(quiet{}) // 1s-7s, none waiting at its end
	clock.Advance(5 * time.Second) // idle
	inv.InvokeUserMessage(quiet{}) // 12s-13s
	h := rec.history.last(3)
	for i, want := range []struct{ start, dur time.Duration }{{0, time.Second}, {time.Second, 6 * time.Second}, {12 * time.Second, time.Second}} {
		if h[i].start != want.start || h[i].dur != want.dur {
			t.Errorf("message %d: start %s duration %s, want %s %s", i, h[i].start, h[i].dur, want.start, want.dur)
		}
	}
}
