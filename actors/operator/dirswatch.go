package operator

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// DirsWatch looks at the modules dirs every interval once the first
// converge is done (LifecycleOptions.ListDirs and DirsInterval), and at the
// global hooks dir with them: a sub-machine of the lifecycle beside the
// operator's Core, with its own events and effects, stepped by the same
// shell. It is pure: the lifecycle hands it the module dirs in force
// whenever the Core tells the config actor of them (KnownDirs), the start
// when the Core marks the operator ready (WatchDirs), the clock's
// DirsDue and the I/O child's DirsListed.
type DirsWatch struct {
	globalHooksDir string   // named in logs
	known          []string // the dirs of the modules in force, sorted
	// last is the listing at the last look, nil before the first one (which
	// compares the dirs with known).
	last         []string
	globalDirErr string // why the global hooks dir cannot be read, at the last look
}

// NewDirsWatch returns a watcher that names globalHooksDir in its logs.
func NewDirsWatch(globalHooksDir string) *DirsWatch {
	return &DirsWatch{globalHooksDir: globalHooksDir}
}

// DirsEvent is an input of DirsWatch.
type DirsEvent interface{ dirsEvent() }

// Events of DirsWatch.
type (
	// DirsListed lists the module dirs (and module.yaml stamps) now, and
	// says whether the global hooks dir can be read.
	DirsListed struct {
		Dirs []string
		Err  error
		// GlobalErr says why the global hooks dir cannot be read.
		GlobalErr error
	}
	// KnownDirs are the dirs of the modules in force.
	KnownDirs struct{ Dirs []string }
	// WatchDirs: the first converge is done; the looks start.
	WatchDirs struct{}
	// DirsDue: it is time to look at the modules dirs (the clock's
	// delivery).
	DirsDue struct{}
)

func (KnownDirs) dirsEvent()  {}
func (WatchDirs) dirsEvent()  {}
func (DirsDue) dirsEvent()    {}
func (DirsListed) dirsEvent() {}

// Step applies ev and returns the effects.
func (w *DirsWatch) Step(ev DirsEvent) []DirsEffect {
	switch e := ev.(type) {
	case KnownDirs:
		w.known = e.Dirs
		return nil
	case WatchDirs:
		return []DirsEffect{ArmDirsCheck{}}
	case DirsDue:
		return []DirsEffect{ListDirs{}}
	case DirsListed:
		return w.listed(e)
	default:
		panic(fmt.Sprintf("operator: event %T has no case in DirsWatch.Step", ev))
	}
}

// DirsEffect is an output of DirsWatch: ListDirs, ArmDirsCheck, and Log
// and Enqueue, which it shares with the Core.
type DirsEffect interface{ dirsEffect() }

// ListDirs lists the module dirs (DirsListed follows).
type ListDirs struct{}

// ArmDirsCheck asks the clock for DirsDue after the interval.
type ArmDirsCheck struct{}

func (ListDirs) dirsEffect()     {}
func (ArmDirsCheck) dirsEffect() {}
func (Log) dirsEffect()          {}
func (Enqueue) dirsEffect()      {}

// listed converges again when module dirs were added or removed, or a
// module.yaml changed, since the last look (the first look compares the
// dirs with the modules in force): that converge reads them (see
// startDiscovery).
func (w *DirsWatch) listed(msg DirsListed) []DirsEffect {
	out := w.lookedAtGlobalDir(msg.GlobalErr)
	if msg.Err != nil {
		return append(out, Log(step.At(slog.LevelWarn, "modules dirs not listed", "err", msg.Err)), ArmDirsCheck{})
	}
	last, now := w.last, msg.Dirs
	if last == nil {
		last, now = w.known, dirsOnly(msg.Dirs)
	}
	w.last = msg.Dirs
	if !slices.Equal(last, now) {
		out = append(out, Log(step.At(slog.LevelInfo, "modules dirs changed; converging")),
			Enqueue{Tasks: []messages.Task{messages.NewReloadAll(messages.ActivationReloadAll, "modules dirs changed")}})
	}
	return append(out, ArmDirsCheck{})
}

// moduleDirs are the dirs of modules, sorted, as a listing writes them.
func moduleDirs(modules []layout.Definition) []string {
	dirs := []string{}
	for _, d := range modules {
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
func (w *DirsWatch) lookedAtGlobalDir(err error) []DirsEffect {
	was := w.globalDirErr
	w.globalDirErr = ""
	if err != nil {
		w.globalDirErr = err.Error()
	}
	switch {
	case err != nil && was == "":
		return []DirsEffect{Log(step.At(slog.LevelError, "global hooks dir cannot be read; the global hooks keep their last good state, their runs fail and are retried until it can",
			"dir", w.globalHooksDir, "err", err))}
	case err == nil && was != "":
		return []DirsEffect{Log(step.At(slog.LevelInfo, "global hooks dir can be read again", "dir", w.globalHooksDir))}
	}
	return nil
}
