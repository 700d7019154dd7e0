// Package messages is the vocabulary the actors speak: value structs, one
// file per topic. Of this module it imports only the values library and the
// hook model (deps_test.go); a few messages carry an actor's PID where an
// answer goes to another actor than the sender (WatchKube.SyncTo,
// SectionReaders). Their only behaviour is naming: owner and queue names
// (ModuleOwner, ParallelQueue), the constructors of the tasks several
// actors queue (NewModuleRun, NewReloadAll), and the Summary methods that
// name a message in the actors' flight recorder (summary.go). A message is
// never mutated after it is sent, by its sender or its receiver: nothing
// here copies the slices and maps it carries.
package messages
