// Package module is the module actor, one per module directory: it owns the
// module's hooks, its values (values.yaml files, its ConfigMap section, its
// hooks' patches), its enabled state and its release. It answers discovery
// (CheckEnabled runs the enabled script), turns its hooks'
// events (messages.HookEvent from the kube and schedule actors) into tasks
// for the queue, queues its own run when its ConfigMap section alone changes
// (with the global section or an enabled flag, the reload runs it), and
// runs the module's tasks one at a time through its worker child: a module
// run (its crds/ and webhooks first, and onStartup, if no run has completed
// since the module was enabled; the bindings' Synchronization in the first
// run; beforeHelm, helm upgrade when needed, afterHelm), a module delete
// (beforeDeleteHelm when the release exists, helm uninstall,
// afterDeleteHelm, then its webhooks removed), and event hook runs. A
// failed run answers with the error and is retried by the queue from its
// first phase.
//
// The decisions are in Core, a pure state machine built by NewCore from
// CoreOptions: Step takes an event (its hooks configured, discovery's
// question, a task assigned, a worker's result, the module's ConfigMap
// section, the release check's timer...) and returns effects of a closed
// set (run a hook, run helm, write a config patch, reply to the queue,
// publish...), each carrying what its applier needs. The core runs the
// module's tasks through their phases itself (core_run.go, core_finish.go,
// core_record.go) and composes four sub-machines, as etcd's raft composes
// its progress tracker, each a pure type with its own closed sets of
// events and effects and its own Step: startup (startup.go: the hooks'
// configuration and its retry, discovery, the tasks of a module that
// failed to start), checker (check.go, with the drift tracker of drift.go:
// the periodic check and the drift), webhooks (webhooks.go: crds/ and
// webhook bindings) and deletion (delete.go: BeforeDeleteHelm and Delete).
// A sub-machine's events come in one wrapper event each (CheckEvent,
// WebhookEvent, DeleteEvent; the start's are the core's own), and its
// effects go out in one wrapper effect each (LifeEffect, CheckEffect,
// WebhookEffect, DeleteEffect, and Owned for the owner kit's), carried
// out by its own applier in the shell (owner.Shell for Owned); the core
// keeps those that change its state, and passes the ones it shares (Log,
// Enqueue, DestructiveDone) as they are. TestApplyCoversEveryEffect proves that every step and every
// applier has a case for each type of its set and a default that panics.
// A record for the log is the one Log effect (actors/step).
//
// Core (pure) code is in core.go, core_*.go, effects.go (the core's
// events and effects) and the files named for a sub-machine (startup.go,
// check.go, drift.go, webhooks.go, delete.go); shell code is in actor.go,
// shell.go (its apply) and shell_*.go. What the module does as an owner,
// as the global actor does (a config check, its section, hook events, its
// hook run and scope), is the composed hookrun/owner.Owner; core_owner.go
// is what its effects mean to a module. Global values and the enabled
// modules are read from the board into Env for each Step (shell.go, step)
// and pinned by a run when it starts.
//
// A module's crds/ and its hooks' webhook bindings (webhooks.go)
// follow its enabled state: applied and registered in the first run since
// it was enabled, before onStartup (EnsureCRDs, EnsureWebhooks); its hooks
// answer webhooks once its Synchronization is done; the webhooks are
// removed last in its delete (DropWebhooks: configurations deleted, never
// updated through a review, so its own webhook cannot block it) and, in
// the background, when its dir goes.
//
// Besides its tasks the module looks after its release itself, off the
// queue (check.go and the drift tracker drift.go decide, in the core;
// shell_check.go carries it out): every Options.CheckInterval an
// enabled module, when idle, asks its worker for the release's objects
// that are absent (it queues its own run to restore them) and those that
// drifted from the manifest (reported, or restored with the drift mode
// "restore"; Options.Drift, overridden by module.yaml). With
// Options.WaitReady (or module.yaml's readiness) the helm step waits for
// the release's workloads to be ready (core_run.go, shell_helm.go): what it waits for is
// shown in the module's state and as its task's status, and a timeout
// fails the run.
//
// The modules dirs are read into Definitions by layout.Scan; a module
// actor is made from one.
package module
