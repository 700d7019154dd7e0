package lifecycle

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// releaseTimeout bounds one list or uninstall.
const releaseTimeout = 5 * time.Minute

type (
	listReleases   struct{}
	releasesListed struct {
		Owned, All []string
		Err        error
	}
	deleteRelease  struct{ Name string }
	releaseDeleted struct {
		Name string
		Err  error
	}
)

// worker does the lifecycle's blocking I/O: helm calls and reading the
// modules dirs.
type worker struct {
	releases Releases
	scan     Scanner
	list     DirLister
}

func newWorker(r Releases, scan Scanner, list DirLister) actor.Producer {
	return func() actor.Actor { return &worker{releases: r, scan: scan, list: list} }
}

// Receive implements actor.Actor.
func (w *worker) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case scanModules:
		defs, errs := w.scan()
		ctx.Respond(modulesScanned{Defs: defs, Errs: errs, Gone: goneDirs(msg.Known)})
	case listDirs:
		dirs, err := w.list()
		ctx.Respond(dirsListed{Dirs: dirs, Err: err})
	case listReleases:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		owned, all, err := w.releases.Names(c)
		ctx.Respond(releasesListed{Owned: owned, All: all, Err: err})
	case deleteRelease:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		ctx.Respond(releaseDeleted{Name: msg.Name, Err: w.releases.Delete(c, msg.Name)})
	}
}

// goneDirs names the modules whose dir no longer exists in a modules dir
// that does: a modules dir that cannot be seen at all (an unmounted
// volume) removes none of its modules, whose releases would be purged.
func goneDirs(known map[string]string) []string {
	var gone []string
	for name, dir := range known {
		if !isDir(filepath.Dir(dir)) {
			continue
		}
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, name)
		}
	}
	return gone
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
