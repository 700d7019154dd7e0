package actortest

import "fmt"

// Standalone is a TB for code outside a test function (the examples):
// Fatalf panics, and Close runs the cleanups in reverse order.
type Standalone struct {
	cleanups []func()
}

// Helper implements TB.
func (*Standalone) Helper() {}

// Fatalf implements TB by panicking.
func (*Standalone) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// Cleanup implements TB.
func (s *Standalone) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

// Close runs the registered cleanups, last first.
func (s *Standalone) Close() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
	s.cleanups = nil
}
