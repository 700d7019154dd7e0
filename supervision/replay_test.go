package supervision_test

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/supervision"
)

// Each owner's request is handed on once, in the order of the owners'
// names; none is handed on when there are none.
func TestReplay(t *testing.T) {
	var got []string
	n := supervision.Replay(map[string]string{"module/b": "B", "global": "G", "module/a": "A"},
		func(r string) { got = append(got, r) })
	if want := []string{"G", "A", "B"}; n != 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed %v (%d), want %v (3)", got, n, want)
	}
	if n := supervision.Replay(map[string]string{}, func(string) { t.Fatal("handled a request of nobody") }); n != 0 {
		t.Fatalf("replayed %d of none", n)
	}
}
