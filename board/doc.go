// Package board is where actors publish the state others read without
// asking them: each slot is an atomic pointer that only its owning actor
// writes, after it handled a message, and any goroutine reads (other actors,
// the HTTP and debug servers). A published value is never changed after it
// is stored: a writer replaces it by a changed copy (maps) or by a new
// version that shares the unchanged part (Objects, a persistent tree).
//
// Readers wait for a condition with WaitFor, which checks it again after
// every publication.
package board
