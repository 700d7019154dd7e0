package bctx

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// writes records the size of each write; after failAfter writes (when
// set) it fails.
type writes struct {
	bytes.Buffer
	sizes     []int
	failAfter int
}

var errFull = errors.New("disk full")

func (w *writes) Write(p []byte) (int, error) {
	if w.failAfter > 0 && len(w.sizes) == w.failAfter {
		return 0, errFull
	}
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}

// bigSnapshot is a Synchronization, a Group and an Event context, each
// carrying n objects of about 100 bytes.
func bigSnapshot(n int) []Context {
	items := make([]ObjectAndFilterResult, n)
	for i := range items {
		items[i] = ObjectAndFilterResult{
			Object:       []byte(fmt.Sprintf(`{"metadata":{"name":"object-%06d","namespace":"ns"},"data":{"k":"%064d"}}`, i, i)),
			FilterResult: []byte(fmt.Sprintf(`"phase-%d"`, i%7)),
		}
	}
	snaps := Snapshots{"cms": items}
	return []Context{Sync("cms", items, nil), GroupContext("cms", "g", snaps),
		WatchEventContext("other", "Modified", items[0], snaps)}
}

// TestEncodeSpills: a context whose snapshot is far larger than spillAt is
// written in pieces of about spillAt (never held whole), the bytes are
// Marshal's, and the sizes of each binding add up.
func TestEncodeSpills(t *testing.T) {
	contexts := bigSnapshot(5000) // ~650 KB a context
	sameAsStream(t, contexts)
	var w writes
	if _, _, err := Array(contexts).Encode(&w); err != nil {
		t.Fatal(err)
	}
	if len(w.sizes) < w.Len()/(spillAt+1024) {
		t.Fatalf("%d writes for %d bytes: the contexts were not spilled", len(w.sizes), w.Len())
	}
	for i, n := range w.sizes {
		if n > spillAt+1024 {
			t.Fatalf("write %d of %d bytes, want at most about %d", i, n, spillAt)
		}
	}
}

// TestEncodeStopsWritingOnError: a writer's error is returned, and nothing
// is written after it.
func TestEncodeStopsWritingOnError(t *testing.T) {
	w := writes{failAfter: 3}
	_, _, err := Array(bigSnapshot(5000)).Encode(&w)
	if !errors.Is(err, errFull) {
		t.Fatalf("Encode: %v, want %v", err, errFull)
	}
	if len(w.sizes) != 3 {
		t.Fatalf("%d writes, want the 3 before the failure", len(w.sizes))
	}
}

// TestEncodeBatchesSmallContexts: contexts far smaller than spillAt go out
// together, not in a write each.
func TestEncodeBatchesSmallContexts(t *testing.T) {
	var contexts []Context
	for i := range 500 {
		item := ObjectAndFilterResult{FilterResult: []byte(fmt.Sprintf(`"phase-%d"`, i))}
		contexts = append(contexts, WatchEventContext("cms", "Modified", item, nil))
	}
	sameAsStream(t, contexts)
	var w writes
	if _, _, err := Array(contexts).Encode(&w); err != nil {
		t.Fatal(err)
	}
	if len(w.sizes) != 1 {
		t.Fatalf("%d writes for %d bytes of small contexts, want 1", len(w.sizes), w.Len())
	}
}
