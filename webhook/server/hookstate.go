package server

import (
	"context"
	"fmt"
)

// hookState is a hook's gate (closed until its Synchronization is done)
// and its slots (one per run allowed at once). The registry's mutex
// guards the fields; a review keeps the channels it took.
type hookState struct {
	gate   chan struct{}
	opened bool
	slots  chan struct{}
	bound  bool // has bindings; a state made by Ready alone does not
}

// hookChans are a hook's channels as a review took them.
type hookChans struct{ gate, slots chan struct{} }

func (h *hookState) chans() hookChans { return hookChans{gate: h.gate, slots: h.slots} }

func (h *hookState) open() {
	if !h.opened {
		h.opened = true
		close(h.gate)
	}
}

// enter waits for the gate and a slot, within ctx; release gives the slot
// back.
func (h hookChans) enter(ctx context.Context) (release func(), err error) {
	select {
	case <-h.gate:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the hook's Synchronization: %w", ctx.Err())
	}
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for a free run of the hook: %w", ctx.Err())
	}
	return func() { <-h.slots }, nil
}
