package operator

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: the lifecycle's apply has a case for every
// effect of the core (publish for those it hands on), and Step for every
// event, so that a new effect or event type fails here rather than being
// dropped without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply":          {Dir: ".", Marker: "operatorEffect"},
		"Core.Step":      {Dir: ".", Marker: "operatorEvent"},
		"applyDirs":      {Dir: ".", Marker: "dirsEffect"},
		"DirsWatch.Step": {Dir: ".", Marker: "dirsEvent"},
	})
}
