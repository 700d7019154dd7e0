package operator_test

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// stopTimeout bounds how long cleanup waits for the root's ordered stop.
const stopTimeout = 10 * time.Second

// treeKit is an actortest.Kit whose System is the operator's: the root's
// Start and StartWith are at hand, and the test's end stops the root
// (ordered, children last first) after the actors the kit spawned.
type treeKit struct {
	*actortest.Kit
	System *operator.System
}

// newTreeKit returns a kit on a fresh operator system, built like
// actortest.New's (fake clock at actortest.Epoch, discard logger, changed by
// opts).
func newTreeKit(t actortest.TB, opts ...actortest.Option) *treeKit {
	t.Helper()
	o, clock := actortest.Options(opts...)
	sys := operator.NewSystem(o)
	stop := func() error { return sys.Stop(stopTimeout) }
	return &treeKit{Kit: actortest.On(t, sys.System, clock, stop), System: sys}
}
