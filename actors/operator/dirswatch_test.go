package operator

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// describeDirs writes an effect of the dirs' watcher as a test expects it;
// "" for a Log.
func describeDirs(e DirsEffect) string {
	if _, isLog := e.(Log); isLog {
		return ""
	}
	if q, ok := e.(Enqueue); ok {
		return describe(q)
	}
	return actortest.TypeName(e)
}

// The modules dirs are looked at every interval once the watch starts:
// the first look compares them with the modules in force, later ones with
// the last look; a listing that fails changes nothing.
func TestDirsWatchLooks(t *testing.T) {
	a := enabledDef(t, "001-a", true)
	a.Dir = "/m/001-a/"
	w := NewDirsWatch("/g")
	h := actortest.Harness[DirsEvent, DirsEffect]{T: t, Step: w.Step, Describe: describeDirs}
	h.Expect(KnownDirs{Dirs: moduleDirs([]layout.Definition{a})})
	h.Expect(WatchDirs{}, "ArmDirsCheck")
	h.Expect(DirsDue{}, "ListDirs")
	h.Expect(DirsListed{Dirs: []string{"/m/001-a", "/m/001-a/module.yaml@1"}}, "ArmDirsCheck")
	h.Expect(DirsListed{Dirs: []string{"/m/001-a", "/m/001-a/module.yaml@2"}}, "Enqueue ReloadAllModules", "ArmDirsCheck")
	h.Expect(DirsListed{Err: errors.New("EIO")}, "ArmDirsCheck")
	h.Expect(DirsListed{Dirs: []string{"/m/001-a", "/m/001-a/module.yaml@2"}, GlobalErr: errors.New("ENOENT")}, "ArmDirsCheck")
	if w.globalDirErr != "ENOENT" {
		t.Fatalf("global hooks dir error %q", w.globalDirErr)
	}
}
