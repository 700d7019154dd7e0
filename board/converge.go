package board

import "time"

// ConvergeState is what the operator publishes of its converge: which
// modules wait for which, what a reload dropped, and a modules set it
// refused (published by the operator only).
type ConvergeState struct {
	// Waits maps a module of the converge in flight whose run has not
	// started to the modules it waits for (those whose run has not
	// succeeded yet in this converge).
	Waits map[string][]string `json:"waits,omitempty"`
	// Superseded maps a module to what last dropped or replaced its run.
	Superseded map[string]Superseded `json:"superseded,omitempty"`
	// ModulesError says why the modules dirs as they are now were refused
	// (a cycle of requirements): the last good set of modules stays in force.
	ModulesError string `json:"modulesError,omitempty"`
}

// Superseded is a module's run that a change dropped.
type Superseded struct {
	Task string    `json:"task"`
	By   string    `json:"by"`
	At   time.Time `json:"at"`
}

// SetConverge publishes the converge's state (operator only).
func (b *Board) SetConverge(s ConvergeState) {
	b.converge.store(s)
	b.notify()
}

// Converge returns the converge's state.
func (b *Board) Converge() ConvergeState {
	return b.converge.load()
}
