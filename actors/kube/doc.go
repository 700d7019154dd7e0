// Package kube is the kube actor: one monitor per `kubernetes` (or older
// `onKubernetesEvent`) binding of the global hooks and of enabled modules'
// hooks, each on a dynamic informer (kubewatch.Informer). The informers' callbacks only
// post messages; the actor keeps each binding's snapshot (object and
// jqFilter result), and queues hook runs: a Synchronization with all
// objects once the informer has listed them, then an Event per add, update
// and delete that executeHookOnEvent selects (an update whose filter result
// did not change runs nothing). Runs of one hook waiting in a queue are
// compacted into one; a Synchronization run stays one task, since its
// owner may wait for it. An owner that runs its Synchronization itself
// (WatchKube.SyncTo) gets them, in hook and binding order, one per hook and
// group, once every monitor has listed. The snapshots a context carries
// are a placeholder here: the owner reads them when the hook starts.
// While module discovery fails, the runs wait here and are queued in order
// once it is released. A namespace that a namespace label selector picks
// later runs the hook as Added for each of its objects; one it drops
// leaves the snapshot without runs.
//
// A jqFilter sees the object as JSON would give it (integers are numbers).
// An object it fails on is logged, counted through Options.Errors and left
// out: the hook hears of it once the filter can read it.
//
// What the owners sent outlives the actor: restarted after a panic, it
// starts their monitors again, which list and queue a fresh Synchronization.
//
// Every list or watch call that fails is counted through Options.Errors.
// One that RBAC or the credentials refuse is logged as an error with the
// hook, binding, verb, resource and namespace and retried by the reflector
// (a second apart at most); the binding syncs once it may list. While the
// apiserver is away (no answer, 429, 5xx) the call is retried at once
// (kubewatch.Guard): the watch is logged once at WARN as dropped and once
// as resumed with how long it was down, counted in Options.WatchesDown
// meanwhile, and resumes within a second of the apiserver answering.
//
// The kinds of an owner's bindings are resolved off the mailbox (discovery
// can hang): the actor goes on with other messages, and starts the
// monitors when the resolution comes back; a kind the apiserver does not
// serve is logged, counted and reported in KubeSynced.Err as before.
//
// With Options.Board, every binding's snapshot is published there, once
// per mailbox batch, for the debug API to read without asking the actor.
package kube
