package operator

import (
	"log/slog"
	"maps"
	"slices"

	"github.com/addon-actors/addon-operator/actors/step"
)

// StuckForeignMessage is the WARN record of a release helm left stuck
// that is no module's release.
const StuckForeignMessage = "stuck helm release left alone: it is no module's release"

// foreignStuck reports each release helm left stuck (pending-*,
// uninstalling) that no module is named after: the adoption rules make it
// someone else's, so this operator never touches it and says so at every
// discovery. A module's stuck release is recovered by its module's run or
// delete (chartrun), and HELM_IGNORE_RELEASE is never listed.
func (c *Core) foreignStuck(stuck map[string]string) []Effect {
	modules := c.names()
	var out []Effect
	for _, name := range slices.Sorted(maps.Keys(stuck)) {
		if slices.Contains(modules, name) {
			continue
		}
		out = append(out, Log(step.At(slog.LevelWarn, StuckForeignMessage, "release", name, "found", stuck[name])))
	}
	return out
}
