package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestApplyCoversEveryEffect: apply has a case for every effect of the
// core, and each sub-machine's applier (applyLife, applyCheck,
// applyWebhooks, applyDelete; the owner's effects go to owner.Shell, whose
// own test holds it to them) for every effect of its set, the ones the
// core keeps included, as panics, so that a new effect type fails here
// rather than at run time in the shell; and the core's step (take), each
// sub-machine's Step (startup.Step, checker.Step, webhooks.Step,
// deletion.Step) and fromOwner have a case for every event or effect of
// their set, so that a new one cannot be dropped without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	ours := map[string]string{
		"apply": "moduleEffect", "applyLife": "lifeEffect", "applyCheck": "checkEffect",
		"applyWebhooks": "webhookEffect", "applyDelete": "deleteEffect",
		"take": "moduleEvent", "startup.Step": "lifeEvent", "checker.Step": "checkEvent",
		"webhooks.Step": "webhookEvent", "deletion.Step": "deleteEvent",
	}
	sets := map[string]actortest.Sealed{"fromOwner": {Dir: "../../hookrun/owner", Marker: "ownerEffect", Qualifier: "owner"}}
	for fn, marker := range ours {
		sets[fn] = actortest.Sealed{Dir: ".", Marker: marker}
	}
	actortest.Covered(t, ".", sets)
}
