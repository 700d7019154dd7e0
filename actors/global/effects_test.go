package global

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core (the owner's effects it hands to owner.Shell, whose own test holds
// it to them), so that a new effect type fails here rather than at run
// time in the shell; Step has a case for every event of the core, and
// fromOwner for every owner effect, so that a new one cannot be dropped
// without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply":     {Dir: ".", Marker: "globalEffect"},
		"Step":      {Dir: ".", Marker: "globalEvent"},
		"fromOwner": {Dir: "../../hookrun/owner", Marker: "ownerEffect", Qualifier: "owner"},
	})
}
