package operator

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Releases is what the lifecycle needs of chartrun (its ioActor uses it): the releases in the
// namespace (those this operator installed, and all of them), and
// uninstalling one.
type Releases interface {
	Names(ctx context.Context) (ReleaseList, error)
	Delete(ctx context.Context, name string) error
}

// ReleaseList are the releases in the namespace: those this operator
// installed, all of them, and those helm left stuck (release -> "revision N
// left STATE"; a module's is recovered by its run, any other is reported
// and left alone).
type ReleaseList struct {
	Owned, All []string
	Stuck      map[string]string
}

// DirLister lists the module dirs by path (layout.ListDirs), and may add
// the stamps of their module.yaml files (layout.ListDefinitions).
type DirLister func() ([]string, error)

// releaseTimeout bounds one list or uninstall.
const releaseTimeout = 5 * time.Minute

// ioActor is the lifecycle's child that does its blocking I/O (helm's
// release list and uninstalls, reading and looking at the modules dirs and
// the global hooks dir), so that the root's mailbox stays free meanwhile.
type ioActor struct {
	releases  Releases
	scan      Scanner
	list      DirLister
	globalDir string
}

func newIOActor(r Releases, scan Scanner, list DirLister, globalDir string) actor.Producer {
	return func() actor.Actor { return &ioActor{releases: r, scan: scan, list: list, globalDir: globalDir} }
}

// Receive implements actor.Actor.
func (a *ioActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case ScanModules:
		defs, errs := a.scan()
		ctx.Respond(ModulesScanned{Defs: defs, Errs: errs, Looked: lookDirs(msg.Known)})
	case ListDirs:
		dirs, err := a.list()
		ctx.Respond(DirsListed{Dirs: dirs, Err: err, GlobalErr: lookGlobalDir(a.globalDir)})
	case ListReleases:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		list, err := a.releases.Names(c)
		ctx.Respond(ReleasesListed{Owned: list.Owned, All: list.All, Stuck: list.Stuck, Err: err})
	case DeleteRelease:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		ctx.Respond(ReleaseDeleted{Name: msg.Name, Err: a.releases.Delete(c, msg.Name)})
	}
}

// lookGlobalDir tells why the global hooks dir cannot be read (nil when it
// can, or when there is none).
func lookGlobalDir(dir string) error {
	if dir == "" {
		return nil
	}
	_, err := os.ReadDir(dir)
	return err
}

// lookDirs looks at the dir of every known module (name -> dir), and at
// the modules dir holding it, and says what it saw, sorted by module; the
// core decides what that means (judgeDirs).
func lookDirs(known map[string]string) []DirLook {
	looks := make([]DirLook, 0, len(known))
	for _, name := range slices.Sorted(maps.Keys(known)) {
		dir := known[name]
		look := DirLook{Module: name, Dir: dir}
		parent := filepath.Dir(dir)
		switch info, err := os.Stat(parent); {
		case err != nil:
			look.ParentErr = err.Error()
		case !info.IsDir():
			look.ParentErr = parent + ": not a directory"
		default:
			if _, err := os.Stat(dir); err != nil {
				look.Err = err.Error()
				// Lstat looks at the entry itself: os.Stat of a dangling
				// symlink says ErrNotExist too, but the entry is there.
				_, lerr := os.Lstat(dir)
				look.NoEntry = errors.Is(lerr, fs.ErrNotExist)
			}
		}
		looks = append(looks, look)
	}
	return looks
}
