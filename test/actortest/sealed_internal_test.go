package actortest

import (
	"reflect"
	"strings"
	"testing"
)

func TestImplementers(t *testing.T) {
	got, err := implementers("testdata/fx", "fxEffect")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Embedding", "Forgotten", "Plain", "*Pointer", "Remote"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q (promoted, pointer and unresolved-import members included)", got, want)
	}
}

func TestMissing(t *testing.T) {
	got, err := missingCases(Sealed{Dir: "testdata/fx", Marker: "fxEffect"}, "testdata/fx", "Apply")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Forgotten"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMissingErrors(t *testing.T) {
	if _, err := missingCases(Sealed{Dir: "testdata/fx", Marker: "noSuchMarker"}, "testdata/fx", "Apply"); err == nil {
		t.Error("a marker no type has: want an error, not an empty set that covers trivially")
	}
	if _, err := missingCases(Sealed{Dir: "testdata/fx", Marker: "fxEffect"}, "testdata/fx", "NoSuchFunc"); err == nil {
		t.Error("a missing applier: want an error")
	}
}

// TestGaps: a type routed to a function that has no case for it, and a
// switch without a default that panics, are found at the depth they are;
// a concrete value passed on, or a value passed to a function with no
// switch over the set, is not a route.
func TestGaps(t *testing.T) {
	funcs, members := fxSource(t)
	got := gaps(funcs, setOf(members), "Route", members, map[string]bool{})
	want := []string{
		`applyPair has no case for ["Remote"] (routed from Route)`,
		`applyQuiet has a switch over the set without a default that panics (routed from Route)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := gaps(funcs, setOf(members), "Apply", members, map[string]bool{}); len(got) != 2 {
		t.Errorf("Apply: got %q, want its missing Forgotten and its quiet switches", got)
	}
}

// TestQualifiedNames: methods of two types that share a name are named
// Type.Method, a call on a field of a package's type routes to that
// type's method, and the bare name of two methods is refused rather than
// read as one of them.
func TestQualifiedNames(t *testing.T) {
	funcs, members := fxSource(t)
	got := gaps(funcs, setOf(members), "Machine.Step", members, map[string]bool{})
	if want := []string{`Other.Step has no case for ["Forgotten"] (routed from Machine.Step)`}; !reflect.DeepEqual(got, want) {
		t.Errorf("Machine.Step: got %q, want %q", got, want)
	}
	missing, err := missingCases(Sealed{Dir: "testdata/fx", Marker: "fxEffect"}, "testdata/fx", "Other.Step")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Embedding", "Forgotten", "*Pointer", "Remote"}; !reflect.DeepEqual(missing, want) {
		t.Errorf("Other.Step: got %q, want %q", missing, want)
	}
	_, err = missingCases(Sealed{Dir: "testdata/fx", Marker: "fxEffect"}, "testdata/fx", "Step")
	if err == nil || !strings.Contains(err.Error(), "Machine.Step, Other.Step") {
		t.Errorf("the bare name of two methods: got %v, want an error naming both", err)
	}
	if _, err := funcs.lookup("Apply"); err != nil {
		t.Errorf("a plain function by its name: %v", err)
	}
}

// fxSource is testdata/fx's functions and its effects.
func fxSource(t *testing.T) (*source, []string) {
	t.Helper()
	funcs, err := funcsIn("testdata/fx")
	if err != nil {
		t.Fatal(err)
	}
	members, err := written(Sealed{Dir: "testdata/fx", Marker: "fxEffect"})
	if err != nil {
		t.Fatal(err)
	}
	return funcs, members
}
