package lifecycle

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// releaseTimeout bounds one list or uninstall.
const releaseTimeout = 5 * time.Minute

type (
	listReleases   struct{}
	releasesListed struct {
		Names []string
		Err   error
	}
	deleteRelease  struct{ Name string }
	releaseDeleted struct {
		Name string
		Err  error
	}
)

// releaseWorker does the lifecycle's blocking helm calls.
type releaseWorker struct{ releases Releases }

func newReleaseWorker(r Releases) actor.Producer {
	return func() actor.Actor { return &releaseWorker{releases: r} }
}

// Receive implements actor.Actor.
func (w *releaseWorker) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case listReleases:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		names, err := w.releases.List(c)
		ctx.Respond(releasesListed{Names: names, Err: err})
	case deleteRelease:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		ctx.Respond(releaseDeleted{Name: msg.Name, Err: w.releases.Delete(c, msg.Name)})
	}
}
