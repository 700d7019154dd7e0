// Package sealed checks, from source, that a type switch covers a sealed
// interface: a set of effects closed by an unexported marker method, which
// only the package that declares it can implement. A test of the package
// that applies the effects calls Missing, so that an effect added without
// its applier case fails the build's tests instead of being ignored.
package sealed
