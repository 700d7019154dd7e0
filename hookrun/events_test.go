package hookrun_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/internal/sealed"
)

// TestStepCoversEveryEvent: Run.Step has a case for every event of a hook
// run, as the owners' cores have for theirs.
func TestStepCoversEveryEvent(t *testing.T) {
	sealed.Covered(t, ".", map[string]sealed.Set{"Step": {Dir: ".", Marker: "hookRunEvent"}})
}
