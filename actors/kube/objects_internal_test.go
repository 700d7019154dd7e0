package kube

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestObjectsStayOrdered: the snapshot's objects come by key whatever the
// order of their events; a changed object shows its new filter result in
// its place, and keys that come or go are placed or left out; a list
// handed out stays as it was.
func TestObjectsStayOrdered(t *testing.T) {
	m := &monitor{snapshot: map[string]*item{}}
	filters := func() string {
		var out []string
		for _, o := range m.objects() {
			out = append(out, string(o.FilterResult))
		}
		return fmt.Sprint(out)
	}
	put := func(k, f string) { m.put(k, item{filter: json.RawMessage(f)}) }
	put("ns/c", `"c1"`)
	put("ns/a", `"a1"`)
	if got := filters(); got != `["a1" "c1"]` {
		t.Fatalf("objects %s", got)
	}
	held := m.objects()
	put("ns/a", `"a2"`)
	if string(held[0].FilterResult) != `"a1"` {
		t.Fatalf("a list handed out changed with the snapshot: %s", held[0].FilterResult)
	}
	put("ns/b", `"b1"`)
	if got := filters(); got != `["a2" "b1" "c1"]` {
		t.Fatalf("after a change and an add: %s", got)
	}
	m.drop("ns/a")
	put("ns/c", `"c2"`)
	if got := filters(); got != `["b1" "c2"]` {
		t.Fatalf("after a delete and a change: %s", got)
	}
}
