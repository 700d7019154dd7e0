package operator

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The I/O child says what it saw and the core judges: a module dir is
// gone only when the modules dir holding it is still there and the entry
// itself is gone: an unmounted modules dir must not purge every release,
// and a module dir that became a dangling symlink is unseen (kept,
// reported), not gone.
func TestJudgeDirsGoneOnlyWhenTheEntryIsGone(t *testing.T) {
	root := t.TempDir()
	kept, removed := filepath.Join(root, "001-kept"), filepath.Join(root, "002-removed")
	dangling := filepath.Join(root, "004-dangling")
	if err := os.Mkdir(kept, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "unmounted-target"), dangling); err != nil {
		t.Fatal(err)
	}
	unmounted := filepath.Join(root, "unmounted", "003-away")
	looked := lookDirs(map[string]string{"kept": kept, "removed": removed, "away": unmounted, "dangling": dangling})
	judged := judgeDirs(ModulesScanned{Looked: looked})
	gone, unseen := judged.Gone, judged.Unseen
	if !reflect.DeepEqual(gone, []string{"removed"}) {
		t.Fatalf("gone %v, want [removed]", gone)
	}
	if len(unseen) != 2 || !strings.Contains(unseen["dangling"], dangling) ||
		!strings.Contains(unseen["away"], filepath.Dir(unmounted)) {
		t.Fatalf("unseen %v, want dangling naming %s and away naming its modules dir", unseen, dangling)
	}
}
