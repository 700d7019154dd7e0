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
// core's Step and each sub-machine's have a case for every event of their
// set, so that a new event cannot be dropped without a word.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"apply":         {Dir: ".", Marker: "moduleEffect"},
		"applyLife":     {Dir: ".", Marker: "lifeEffect"},
		"applyCheck":    {Dir: ".", Marker: "checkEffect"},
		"applyWebhooks": {Dir: ".", Marker: "webhookEffect"},
		"applyDelete":   {Dir: ".", Marker: "deleteEffect"},
		"applyHook":     {Dir: "../../hookrun", Marker: "hookRunEffect", Qualifier: "hookrun"},
		"take":          {Dir: ".", Marker: "moduleEvent"},
		"lifeStep":      {Dir: ".", Marker: "lifeEvent"},
		"checkStep":     {Dir: ".", Marker: "checkEvent"},
		"webhookStep":   {Dir: ".", Marker: "webhookEvent"},
		"deleteStep":    {Dir: ".", Marker: "deleteEvent"},
	})
}
