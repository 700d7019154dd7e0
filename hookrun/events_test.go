package hookrun_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestStepCoversEveryEvent: Run.Step has a case for every event of a hook
// run, as the owners' cores have for theirs.
func TestStepCoversEveryEvent(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{"Step": {Dir: ".", Marker: "hookRunEvent"}})
}
