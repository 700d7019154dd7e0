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
	// listDirs asks the ioActor for the module dirs.
	listDirs   struct{}
	dirsListed struct {
		Dirs []string
		Err  error
		// GlobalErr says why the global hooks dir cannot be read.
		GlobalErr error
	}
)

// armDirsCheck schedules the next look at the modules dirs.
func (l *lifecycle) armDirsCheck(ctx actor.Context) {
	if l.opts.ListDirs == nil || l.opts.DirsInterval <= 0 {
		return
	}
	supervision.Deliver(l.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), checkDirs{}, l.opts.DirsInterval)
}

func (l *lifecycle) handleCheckDirs(ctx actor.Context) {
	ctx.Request(l.io, listDirs{})
}

// handleDirsListed converges again when module dirs were added or
// removed, or a module.yaml changed, since the last look (the first look
// compares the dirs with the modules running): that converge reads them
// (see startDiscovery).
func (l *lifecycle) handleDirsListed(ctx actor.Context, msg dirsListed) {
	defer l.armDirsCheck(ctx)
	l.lookedAtGlobalDir(msg.GlobalErr)
	if msg.Err != nil {
		l.opts.Log.Warn("modules dirs not listed", "err", msg.Err)
		return
	}
	last, now := l.lastDirs, msg.Dirs
	if last == nil {
		last, now = l.knownDirs(), dirsOnly(msg.Dirs)
	}
	l.lastDirs = msg.Dirs
	if !slices.Equal(last, now) {
		l.opts.Log.Info("modules dirs changed; converging")
		l.enqueue(ctx, messages.NewReloadAll("modules dirs changed"))
	}
}

// knownDirs are the dirs of the running modules, sorted.
func (l *lifecycle) knownDirs() []string {
	dirs := []string{}
	for _, d := range l.opts.Modules {
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
func (l *lifecycle) lookedAtGlobalDir(err error) {
	was := l.globalDirErr
	l.globalDirErr = ""
	if err != nil {
		l.globalDirErr = err.Error()
	}
	switch {
	case err != nil && was == "":
		l.opts.Log.Error("global hooks dir cannot be read; the global hooks keep their last good state, their runs fail and are retried until it can",
			"dir", l.opts.GlobalHooksDir, "err", err)
	case err == nil && was != "":
		l.opts.Log.Info("global hooks dir can be read again", "dir", l.opts.GlobalHooksDir)
	}
}
