// Package board is where actors publish the state others read without
// asking them: each slot (one) is an atomic pointer that only its owning actor
// writes, after it handled a message, and any goroutine reads (other actors,
// the HTTP and debug servers). A published value is never changed after it
// is stored: a writer replaces it by a new version that shares the
// unchanged part (Objects, a persistent tree). The maps with an entry per
// module or hook (module states and values, hook statistics, snapshots) are
// the exception: each owner changes its own key under a short lock (keyed),
// so that a publication costs the same with 10 or 1,000 modules, and a
// reader of the whole map gets a copy of its own.
//
// Readers read through Reader (reader.go), the one typed read side: the
// debug API and plan take a Reader, never a *Board, and the write side's
// conventions (the unseen and failed phases, an owner's values published
// as a snapshot, patches and password paths) are read there once (Known,
// KnownModules, FailedToStart, OwnerValues). Readers wait for a condition
// with WaitFor, which checks it again after every publication.
package board
