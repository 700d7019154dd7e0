// Package kube is the kube actor: one monitor per `kubernetes` (or older
// `onKubernetesEvent`) binding of the global hooks and of enabled modules'
// hooks, each on a client-go dynamic informer. The informers' callbacks only
// post messages; the actor keeps each binding's snapshot (object and
// jqFilter result), and queues hook runs: a Synchronization with all
// objects once the informer has listed them, then an Event per add, update
// and delete that executeHookOnEvent selects (an update whose filter result
// did not change runs nothing). Runs of one hook waiting in a queue are
// compacted into one.
package kube
