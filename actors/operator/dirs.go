package operator

import (
	"path/filepath"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// DirLister lists the module dirs by path (layout.ListDirs).
type DirLister func() ([]string, error)

type (
	// checkDirs is delivered by the clock every DirsInterval.
	checkDirs struct{}
	// listDirs asks the worker for the module dirs.
	listDirs   struct{}
	dirsListed struct {
		Dirs []string
		Err  error
	}
)

// armDirsCheck schedules the next look at the modules dirs.
func (b *lifecycle) armDirsCheck(ctx actor.Context) {
	if b.opts.ListDirs == nil || b.opts.DirsInterval <= 0 {
		return
	}
	supervision.Deliver(b.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), checkDirs{}, b.opts.DirsInterval)
}

func (b *lifecycle) handleCheckDirs(ctx actor.Context) {
	ctx.Request(b.releases, listDirs{})
}

// handleDirsListed converges again when module dirs were added or
// removed since the last look (the first look compares with the modules
// running): that converge reads them (see startDiscovery).
func (b *lifecycle) handleDirsListed(ctx actor.Context, msg dirsListed) {
	defer b.armDirsCheck(ctx)
	if msg.Err != nil {
		b.opts.Log.Warn("modules dirs not listed", "err", msg.Err)
		return
	}
	last := b.lastDirs
	if last == nil {
		last = b.knownDirs()
	}
	b.lastDirs = msg.Dirs
	if !slices.Equal(last, msg.Dirs) {
		b.opts.Log.Info("modules dirs changed; converging")
		b.enqueue(ctx, messages.NewReloadAll("modules dirs changed"))
	}
}

// knownDirs are the dirs of the running modules, sorted.
func (b *lifecycle) knownDirs() []string {
	dirs := []string{}
	for _, d := range b.opts.Modules {
		dirs = append(dirs, filepath.Clean(d.Dir))
	}
	slices.Sort(dirs)
	return dirs
}
