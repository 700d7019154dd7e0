package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core (applyLog, applyLife and applyReconfigure for those it hands on),
// and applyHook for every effect of a hook run (the ones the core keeps
// included, as panics), so that a new effect type fails here rather than
// at run time in the shell; and Step has a case for every event of the
// core (stepLife, whenConfigured and stepPhase for those it hands on), so
// that a new event cannot be dropped without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply":     {Dir: ".", Marker: "moduleEffect"},
		"Step":      {Dir: ".", Marker: "moduleEvent"},
		"applyHook": {Dir: "../../hookrun", Marker: "hookRunEffect", Qualifier: "hookrun"},
	})
}
