// Package module is the module actor, one per module directory: it owns the
// module's hooks, its values (values.yaml files, its ConfigMap section, its
// hooks' patches), its enabled state and its release. It answers discovery
// (CheckEnabled runs the enabled script), and runs the module's tasks one at
// a time through its worker child: a module run (onStartup if it has not
// completed since the module was enabled, beforeHelm, helm upgrade when
// needed, afterHelm), a module delete (helm uninstall, afterDeleteHelm), and
// event hook runs. A failed run answers with the error and is retried by the
// queue from its first phase.
//
// The decisions are in Core, a pure state machine over explicit phases
// (core.go, phases.go, finish.go): Step takes an event (a task assigned, a
// worker's result, the module's ConfigMap section...) and returns effects
// as plain data (run a hook, run helm, write a config patch, reply to the
// queue...). The actor (actor.go, shell.go) turns each message into an
// event and carries out the effects; global values and the enabled
// modules are read from the board for each Step and pinned by a run when
// it starts.
//
// A module's crds/ (crds.go) and its hooks' webhook bindings (webhooks.go)
// follow its enabled state: applied and registered in the first run since
// it was enabled, before onStartup; the webhooks are removed last in its
// delete (configurations deleted, never updated through a review, so its
// own webhook cannot block it) and when its dir goes.
//
// Scan reads the modules directories into Definitions at start-up.
package module
