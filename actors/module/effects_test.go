package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/internal/sealed"
)

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core, and applyHook for every effect of a hook run (the ones the core keeps
// included, as panics), so that a new effect type fails here rather than
// at run time in the shell.
func TestApplyCoversEveryEffect(t *testing.T) {
	for _, c := range []struct {
		set sealed.Set
		fn  string
	}{
		{sealed.Set{Dir: ".", Marker: "moduleEffect"}, "apply"},
		{sealed.Set{Dir: "../../hookrun", Marker: "hookRunEffect", Qualifier: "hookrun"}, "applyHook"},
	} {
		missing, err := sealed.Missing(c.set, ".", c.fn)
		if err != nil {
			t.Fatal(err)
		}
		if len(missing) > 0 {
			t.Errorf("%s has no case for the effects %q", c.fn, missing)
		}
	}
}
