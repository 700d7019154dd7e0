// Package worker is an owner's worker child: the actor that does the
// owner's blocking I/O one job at a time (configuring hooks with --config,
// hook runs, enabled scripts, helm upgrade, uninstall and the absent
// resources check), so that the owner's own mailbox stays free for the
// inspector and for new events. Each job is answered to its sender with
// its result type (HookJob -> HookResult, HelmJob -> HelmResult, ...).
//
// RunWatch follows the hook runs in progress of every worker: a run that
// takes long is logged, and the oldest run of each queue is read for a
// gauge.
package worker
