package actortest

import (
	"reflect"
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
