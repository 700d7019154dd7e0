package operator

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// DirLister lists the module dirs by path (layout.ListDirs), and may add
// the stamps of their module.yaml files (layout.ListDefinitions).
type DirLister func() ([]string, error)

type (
	// checkDirs is delivered by the clock every DirsInterval.
	checkDirs struct{}
	// listDirs asks the worker for the module dirs.
	listDirs   struct{}
	dirsListed struct {
		Dirs []string
		Err  error
		// GlobalErr says why the global hooks dir cannot be read.
		GlobalErr error
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
// removed, or a module.yaml changed, since the last look (the first look
// compares the dirs with the modules running): that converge reads them
// (see startDiscovery).
func (b *lifecycle) handleDirsListed(ctx actor.Context, msg dirsListed) {
	defer b.armDirsCheck(ctx)
	b.lookedAtGlobalDir(msg.GlobalErr)
	if msg.Err != nil {
		b.opts.Log.Warn("modules dirs not listed", "err", msg.Err)
		return
	}
	last, now := b.lastDirs, msg.Dirs
	if last == nil {
		last, now = b.knownDirs(), dirsOnly(msg.Dirs)
	}
	b.lastDirs = msg.Dirs
	if !slices.Equal(last, now) {
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

// dirsOnly drops the module.yaml stamps from a listing.
func dirsOnly(listed []string) []string {
	out := []string{}
	for _, entry := range listed {
		if !strings.Contains(filepath.Base(entry), layout.DefinitionStampSep) {
			out = append(out, entry)
		}
	}
	return out
}

// lookedAtGlobalDir logs when the global hooks dir stops or starts being
// readable. Nothing is decided from its absence: the global hooks keep
// their values and enabled flags, and their runs fail (and are retried)
// until the dir is back, so no module is disabled for it.
func (b *lifecycle) lookedAtGlobalDir(err error) {
	was := b.globalDirErr
	b.globalDirErr = ""
	if err != nil {
		b.globalDirErr = err.Error()
	}
	switch {
	case err != nil && was == "":
		b.opts.Log.Error("global hooks dir cannot be read; the global hooks keep their last good state, their runs fail and are retried until it can",
			"dir", b.opts.GlobalHooksDir, "err", err)
	case err == nil && was != "":
		b.opts.Log.Info("global hooks dir can be read again", "dir", b.opts.GlobalHooksDir)
	}
}
