package board_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bctx"
)

func obj(s string) bctx.ObjectAndFilterResult {
	return bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(fmt.Sprintf("%q", s))}
}

// names lists the filter results of objs (each a JSON string).
func names(t *testing.T, objs []bctx.ObjectAndFilterResult) []string {
	t.Helper()
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		var s string
		if err := json.Unmarshal(o.FilterResult, &s); err != nil {
			t.Fatalf("filter result %s: %v", o.FilterResult, err)
		}
		out = append(out, s)
	}
	return out
}

func TestObjectsChanges(t *testing.T) {
	type step struct {
		remove bool
		key    string
	}
	tests := []struct {
		name  string
		steps []step
		want  []string // values in key order; a value is its key
	}{
		{"empty", nil, []string{}},
		{"added out of order come back in key order", []step{{false, "ns/c"}, {false, "ns/a"}, {false, "ns/b"}}, []string{"ns/a", "ns/b", "ns/c"}},
		{"set twice counts once", []step{{false, "a/x"}, {false, "a/x"}}, []string{"a/x"}},
		{"removed", []step{{false, "a"}, {false, "b"}, {false, "c"}, {true, "b"}}, []string{"a", "c"}},
		{"removing a missing key", []step{{false, "a"}, {true, "zz"}}, []string{"a"}},
		{"removed from empty", []step{{true, "a"}}, []string{}},
		{"all removed", []step{{false, "a"}, {false, "b"}, {true, "a"}, {true, "b"}}, []string{}},
		// By namespace, then name: "N" before "N-b", though '-' sorts
		// before '/'; cluster-scoped objects (no namespace) first.
		{"by namespace, then name", []step{{false, "N-b/x"}, {false, "N/z"}, {false, "/c"}, {false, "N/a"}, {true, "N/z"}},
			[]string{"/c", "N/a", "N-b/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o board.Objects
			for _, s := range tt.steps {
				if s.remove {
					o = o.Without(s.key)
				} else {
					o = o.With(s.key, obj(s.key))
				}
			}
			if got := names(t, o.List()); !slices.Equal(got, tt.want) || o.Len() != len(tt.want) {
				t.Fatalf("list %v (len %d), want %v", got, o.Len(), tt.want)
			}
		})
	}
}

// CompareKeys orders by namespace, then name, and agrees with string
// order within a namespace.
func TestCompareKeys(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"N/a", "N-b/a", -1}, {"N-b/a", "N/z", 1}, {"/x", "a/x", -1}, {"ns/a", "ns/b", -1},
		{"ns/b", "ns/a", 1}, {"ns/a", "ns/a", 0}, {"ns/a", "ns/ab", -1}, {"ns/a-1", "ns/a.1", -1},
	} {
		if got := board.CompareKeys(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareKeys(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestObjectsGetAndReplace(t *testing.T) {
	o := board.Objects{}.With("a", obj("one")).With("b", obj("two"))
	o = o.With("a", obj("three"))
	if got, ok := o.Get("a"); !ok || string(got.FilterResult) != `"three"` {
		t.Fatalf("Get(a) = %s, %t; want \"three\"", got.FilterResult, ok)
	}
	if _, ok := o.Get("c"); ok {
		t.Fatal("Get(c) found an object never set")
	}
	if o.Len() != 2 {
		t.Fatalf("Len %d after a replace, want 2", o.Len())
	}
}

// Every version stays as it was while later ones change: a reader can walk
// a published version while the writer goes on. Random changes are checked
// against a map, and every old version against the map as it was then.
func TestObjectsVersionsArePersistent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var o board.Objects
	model := map[string]string{}
	type version struct {
		objects board.Objects
		want    map[string]string
	}
	var versions []version
	for i := range 3000 {
		k := fmt.Sprintf("ns-%d/obj-%03d", r.IntN(3), r.IntN(300))
		if r.IntN(3) == 0 {
			o = o.Without(k)
			delete(model, k)
		} else {
			v := fmt.Sprintf("%s@%d", k, i)
			o = o.With(k, obj(v))
			model[k] = v
		}
		if i%100 == 0 {
			versions = append(versions, version{o, maps.Clone(model)})
		}
	}
	versions = append(versions, version{o, model})
	for i, v := range versions {
		want := make([]string, 0, len(v.want))
		for _, k := range slices.Sorted(maps.Keys(v.want)) {
			want = append(want, v.want[k])
		}
		if got := names(t, v.objects.List()); !slices.Equal(got, want) || v.objects.Len() != len(want) {
			t.Fatalf("version %d: %d objects (len %d), want %d: %v", i, len(got), v.objects.Len(), len(want), got)
		}
	}
}

// BenchmarkObjectsEvent is what the kube actor pays per event to keep a
// binding of 10,000 objects published: a new version with one object
// changed (the list is built only when the debug API reads it).
func BenchmarkObjectsEvent(b *testing.B) {
	const n = 10000
	var o board.Objects
	for i := range n {
		o = o.With(fmt.Sprintf("namespace-name/cm-%05d", i), obj("x"))
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("namespace-name/cm-%05d", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		o = o.Without(keys[i%n]).With(keys[i%n], obj("y"))
		i++
	}
	if o.Len() != n {
		b.Fatalf("%d objects, want %d", o.Len(), n)
	}
}

// BenchmarkObjectsList is a debug read of a binding of 10,000 objects.
func BenchmarkObjectsList(b *testing.B) {
	var o board.Objects
	for i := range 10000 {
		o = o.With(fmt.Sprintf("namespace-name/cm-%05d", i), obj("x"))
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(o.List()) != 10000 {
			b.Fatal("short list")
		}
	}
}
