package operator

import (
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// DirLister lists the module dirs by path (layout.ListDirs), and may add
// the stamps of their module.yaml files (layout.ListDefinitions).
type DirLister func() ([]string, error)

// dirsListed converges again when module dirs were added or removed, or
// a module.yaml changed, since the last look (the first look compares the
// dirs with the modules running): that converge reads them (see
// startDiscovery).
func (c *Core) dirsListed(msg DirsListed) []Effect {
	out := c.lookedAtGlobalDir(msg.GlobalErr)
	if msg.Err != nil {
		return append(out, Log(step.At(slog.LevelWarn, "modules dirs not listed", "err", msg.Err)), ArmDirsCheck{})
	}
	last, now := c.lastDirs, msg.Dirs
	if last == nil {
		last, now = c.knownDirs(), dirsOnly(msg.Dirs)
	}
	c.lastDirs = msg.Dirs
	if !slices.Equal(last, now) {
		out = append(out, Log(step.At(slog.LevelInfo, "modules dirs changed; converging")),
			Enqueue{Tasks: []messages.Task{messages.NewReloadAll(messages.ActivationReloadAll, "modules dirs changed")}})
	}
	return append(out, ArmDirsCheck{})
}

// knownDirs are the dirs of the running modules, sorted.
func (c *Core) knownDirs() []string {
	dirs := []string{}
	for _, d := range c.modules {
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
func (c *Core) lookedAtGlobalDir(err error) []Effect {
	was := c.globalDirErr
	c.globalDirErr = ""
	if err != nil {
		c.globalDirErr = err.Error()
	}
	switch {
	case err != nil && was == "":
		return []Effect{Log(step.At(slog.LevelError, "global hooks dir cannot be read; the global hooks keep their last good state, their runs fail and are retried until it can",
			"dir", c.opts.GlobalHooksDir, "err", err))}
	case err == nil && was != "":
		return []Effect{Log(step.At(slog.LevelInfo, "global hooks dir can be read again", "dir", c.opts.GlobalHooksDir))}
	}
	return nil
}
