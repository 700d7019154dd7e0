// Package fx is a sealed set of effects for the tests of the kit's Covered:
// Apply has no case for Forgotten.
package fx

import "example.com/not/resolved"

// Effect is sealed by its marker.
type Effect interface{ fxEffect() }

type (
	Plain     struct{}
	Remote    struct{ V resolved.Thing }
	Pointer   struct{}
	Embedding struct{ Plain }
	Forgotten struct{}
	notEffect struct{}
)

func (Plain) fxEffect()     {}
func (Remote) fxEffect()    {}
func (*Pointer) fxEffect()  {}
func (Forgotten) fxEffect() {}

// Apply covers every effect but Forgotten.
func Apply(e Effect) string {
	switch e.(type) {
	case Plain, Remote:
		return "plain"
	case *Pointer:
		return "pointer"
	}
	switch e.(type) {
	case Embedding:
		return "embedding"
	}
	return ""
}

var _ = notEffect{}

// Route covers every effect itself, but hands Plain and Remote to
// applyPair, which forgets Remote, and Forgotten, by the switched value,
// to applyQuiet, whose switch has no default that panics; keep takes any
// value and has no switch.
func Route(ev Effect) string {
	switch e := ev.(type) {
	case Plain, Remote:
		return applyPair(e)
	case Forgotten:
		return applyQuiet(ev)
	case *Pointer, Embedding:
		return keep(e) // no switch over the set: not a route
	default:
		panic("no case")
	}
}

func applyPair(e Effect) string {
	switch e.(type) {
	case Plain:
		return "plain"
	default:
		panic("no case")
	}
}

func applyQuiet(e Effect) string {
	switch e.(type) {
	case Forgotten:
		return "forgotten"
	}
	return ""
}

func keep(any) string { return "" }

// Machine and Other each name their step Step, as the sub-machines of one
// core do: Machine's covers every effect and hands Plain and Forgotten to
// Other's, which forgets Forgotten.
type (
	Machine struct{ other Other }
	Other   struct{}
)

func (m Machine) Step(ev Effect) string {
	switch e := ev.(type) {
	case Plain, Forgotten:
		return m.other.Step(e)
	case Remote, *Pointer, Embedding:
		return "machine"
	default:
		panic("no case")
	}
}

func (Other) Step(ev Effect) string {
	switch ev.(type) {
	case Plain:
		return "other"
	default:
		panic("no case")
	}
}
