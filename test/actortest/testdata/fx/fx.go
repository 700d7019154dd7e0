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
