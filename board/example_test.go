package board_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/board"
)

// The actors publish; readers read through a board.Reader, which reads
// the write side's conventions once: here a module whose actor failed to
// start, and a dir not seen since start-up.
func ExampleReader() {
	b := board.New()
	b.SetModule(board.ModuleState{Name: "web", Phase: board.PhaseFailed, LastError: "hook a.sh: --config: exit status 1"})
	b.SetDirErrors(map[string]string{"db": "dangling symlink"})

	var r board.Reader = b
	for _, m := range r.KnownModules() {
		fmt.Printf("%s: %s (%s)\n", m.Name, m.Phase, m.DirError)
	}
	fmt.Println("failed to start:", r.FailedToStart())
	// Output:
	// db: unseen (dangling symlink)
	// web: failed ()
	// failed to start: [web]
}
