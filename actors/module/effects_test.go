package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core, and each sub-machine's applier (applyLife, applyCheck,
// applyWebhooks, applyDelete, applyHook for a hook run's) for every effect
// of its set, the ones the core keeps included, as panics, so that a new
// effect type fails here rather than at run time in the shell; and the
// core's step (take) and each sub-machine's have a case for every event of
// their set, so that a new event cannot be dropped without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	ours := map[string]string{
		"apply": "moduleEffect", "applyLife": "lifeEffect", "applyCheck": "checkEffect",
		"applyWebhooks": "webhookEffect", "applyDelete": "deleteEffect",
		"take": "moduleEvent", "lifeStep": "lifeEvent", "checkStep": "checkEvent",
		"webhookStep": "webhookEvent", "deleteStep": "deleteEvent",
	}
	sets := map[string]actortest.Sealed{"applyHook": {Dir: "../../hookrun", Marker: "hookRunEffect", Qualifier: "hookrun"}}
	for fn, marker := range ours {
		sets[fn] = actortest.Sealed{Dir: ".", Marker: marker}
	}
	actortest.Covered(t, ".", sets)
}
