package board_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/values"
)

// Publishers of different modules change the board at the same time and
// readers copy it meanwhile: every change lands, no reader sees a torn map
// (the race detector checks the sharing).
func TestConcurrentModulePublications(t *testing.T) {
	b := board.New()
	const modules, rounds = 20, 50
	var wg sync.WaitGroup
	for i := range modules {
		name := fmt.Sprintf("m%d", i)
		wg.Go(func() {
			for r := range rounds {
				b.SetModule(board.ModuleState{Name: name, Tasks: r + 1})
				b.SetModuleValues(name, values.Snapshot{Key: name})
				b.RecordHookRun(name, "hooks/a", 1, nil)
			}
		})
	}
	wg.Go(func() {
		for range rounds {
			for name, m := range b.Modules() {
				if m.Name != name {
					t.Errorf("Modules()[%q] is %q", name, m.Name)
				}
			}
		}
	})
	wg.Wait()
	if got := len(b.Modules()); got != modules {
		t.Fatalf("%d modules published, want %d", got, modules)
	}
	for i := range modules {
		name := fmt.Sprintf("m%d", i)
		if m := b.Modules()[name]; m.Tasks != rounds {
			t.Errorf("%s: Tasks %d, want the last publication's %d", name, m.Tasks, rounds)
		}
		if h := b.Hooks()[name+":hooks/a"]; h.Runs != rounds {
			t.Errorf("%s: %d hook runs counted, want %d", name, h.Runs, rounds)
		}
	}
}

// A module's publication costs the same with 100 or 10,000 modules on the
// board (it used to copy the whole map: compare the ns/op of the sizes).
func BenchmarkSetModule(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("modules=%d", n), func(b *testing.B) {
			bd := board.New()
			for i := range n {
				bd.SetModule(board.ModuleState{Name: fmt.Sprintf("m%d", i)})
				bd.SetModuleValues(fmt.Sprintf("m%d", i), values.Snapshot{})
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				name := fmt.Sprintf("m%d", i%n)
				bd.SetModule(board.ModuleState{Name: name, Tasks: i})
				bd.SetModuleValues(name, values.Snapshot{Key: name})
				bd.RecordHookRun(name, "hooks/a", 1, nil)
			}
		})
	}
}
