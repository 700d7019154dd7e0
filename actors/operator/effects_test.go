package operator

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: the lifecycle's apply has a case for every
// effect of the core, so that a new effect type fails here rather than
// at run time in the shell.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply": {Dir: ".", Marker: "operatorEffect"},
	})
}
