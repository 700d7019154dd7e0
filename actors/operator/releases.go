package operator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Releases is what the lifecycle needs of chartrun (its ioActor uses it): the releases in the
// namespace (those this operator installed, and all of them), and
// uninstalling one.
type Releases interface {
	Names(ctx context.Context) (owned, all []string, err error)
	Delete(ctx context.Context, name string) error
}

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
		gone, unseen := lookDirs(msg.Known)
		ctx.Respond(ModulesScanned{Defs: defs, Errs: errs, Gone: gone, Unseen: unseen})
	case ListDirs:
		dirs, err := a.list()
		ctx.Respond(DirsListed{Dirs: dirs, Err: err, GlobalErr: lookGlobalDir(a.globalDir)})
	case ListReleases:
		c, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		owned, all, err := a.releases.Names(c)
		ctx.Respond(ReleasesListed{Owned: owned, All: all, Err: err})
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

// lookDirs sorts the known modules whose dir cannot be found: gone (the
// dir itself no longer exists, in a modules dir that does) or unseen (the
// dir is a symlink whose target is missing or unreadable, or it cannot be
// looked at, or the modules dir holding it cannot be seen: an unmounted
// volume removes none of its modules, whose releases would be purged), by
// name with the reason.
func lookDirs(known map[string]string) (gone []string, unseen map[string]string) {
	unseen = map[string]string{}
	for name, dir := range known {
		if info, err := os.Stat(filepath.Dir(dir)); err != nil || !info.IsDir() {
			if err == nil {
				err = fmt.Errorf("%s: not a directory", filepath.Dir(dir))
			}
			unseen[name] = fmt.Sprintf("modules dir cannot be seen, kept with its release until it can: %v", err)
			continue
		}
		_, err := os.Stat(dir)
		if err == nil {
			continue
		}
		// Lstat looks at the entry itself: os.Stat of a dangling symlink
		// says ErrNotExist too, but the module dir is still there.
		if _, lerr := os.Lstat(dir); errors.Is(lerr, fs.ErrNotExist) {
			gone = append(gone, name)
			continue
		}
		unseen[name] = fmt.Sprintf("dir cannot be seen, kept with its release until it can: %v", err)
	}
	return gone, unseen
}
