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
// The decisions are in Core, a pure state machine over explicit phases
// (core.go, phases.go, finish.go, lifecycle.go, check.go, drifttrack.go,
// crds.go, webhooks.go, maintenance.go, record.go; its events and effects
// are the closed sets of effects.go): Step takes an event (the actor started,
// its hooks configured, discovery's question, a task assigned, a worker's
// result, the module's ConfigMap section, the release check's timer...)
// and returns effects of a closed set (run a hook, run helm, write a
// config patch, reply to the queue...). The actor (actor.go, shell.go and
// the shell halves of enabled.go, readywait.go, releasecheck.go,
// reconfigure.go, webhooks.go) turns each message into an event and carries
// out the effects: shell.go's apply has a case for every effect
// (TestApplyCoversEveryEffect), with applyLog, applyLife and
// applyReconfigure for the effects that only log, those of the module's own
// life and the hooks' reconfiguration. Global values and the enabled
// modules are read from the board into Env for each Step (shell.go, step)
// and pinned by a run when it starts.
//
// A module's crds/ (crds.go) and its hooks' webhook bindings (webhooks.go)
// follow its enabled state: applied and registered in the first run since
// it was enabled, before onStartup (EnsureCRDs, EnsureWebhooks); its hooks
// answer webhooks once its Synchronization is done; the webhooks are
// removed last in its delete (DropWebhooks: configurations deleted, never
// updated through a review, so its own webhook cannot block it) and, in
// the background, when its dir goes.
//
// Besides its tasks the module looks after its release itself, off the
// queue (check.go and the drift tracker drifttrack.go decide, in the core;
// releasecheck.go carries it out): every Options.CheckInterval an
// enabled module, when idle, asks its worker for the release's objects
// that are absent (it queues its own run to restore them) and those that
// drifted from the manifest (reported, or restored with the drift mode
// "restore"; Options.Drift, overridden by module.yaml). With
// Options.WaitReady (or module.yaml's readiness) the helm step waits for
// the release's workloads to be ready (readywait.go): what it waits for is
// shown in the module's state and as its task's status, and a timeout
// fails the run.
//
// The modules dirs are read into Definitions by layout.Scan; a module
// actor is made from one.
package module
