package supervision

import (
	"maps"
	"slices"
)

// Replay hands each owner's last request, in the order of the owners'
// names, to handle, and returns how many there were. An actor restarted by
// its guardian keeps the requests it was sent in state that outlives an
// instance, and replays them when it starts again: no owner sends them
// twice.
func Replay[R any](requests map[string]R, handle func(R)) int {
	for _, owner := range slices.Sorted(maps.Keys(requests)) {
		handle(requests[owner])
	}
	return len(requests)
}
