// Package kube is the kube actor: one monitor per `kubernetes` (or older
// `onKubernetesEvent`) binding of the global hooks and of enabled modules'
// hooks, each on a dynamic informer (kubewatch.Informer). The informers' callbacks only
// post messages; the actor keeps each binding's snapshot (object and
// jqFilter result) and tells the hook's owner (global or module/NAME) what
// should run, as a messages.HookEvent: a Synchronization with all objects
// once the informer has listed them, then an Event per add, update and
// delete that executeHookOnEvent selects (an update whose filter result
// did not change runs nothing). It queues nothing itself: the owner makes
// the task (hookrun.TaskOf), and the queue actor compacts waiting event
// runs of one hook and holds them back while module discovery fails. An
// owner that runs its Synchronization itself (WatchKube.SyncTo) gets its
// runs as one messages.KubeSyncRuns instead, in hook and binding order, one
// per hook and group, once every monitor has listed. The snapshots a
// context carries are a placeholder here: the owner asks for them
// (messages.GetSnapshots) when the hook starts. A namespace that a
// namespace label selector picks later runs the hook as Added for each of
// its objects; one it drops leaves the snapshot without runs.
//
// A jqFilter sees the object as JSON would give it (integers are numbers).
// An object it fails on is logged, counted through Options.Errors and left
// out: the hook hears of it once the filter can read it.
//
// What the owners sent outlives the actor: restarted after a panic, it
// starts their monitors again, which list and send their owners a fresh
// Synchronization (as HookEvents: an owner's own first run has had them).
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
//
// An informer lists in pages of 5000 from the latest snapshot (with
// Options.Raw each page, and each watch event, is read as a stream and
// decoded in one pass, raw.go) and slims each page once decoded: with a
// jqFilter and keepFullObjectsInMemory: false its cache holds each
// object's identity and filter result only. It lists and watches; it does
// not stream a watch-list.
package kube
