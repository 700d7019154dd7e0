// Package operator is the root of the actor tree and the operator's
// lifecycle, the state machine of spec/LIFECYCLE.md and LIFECYCLE-STEPS.md.
//
// The root actor (root.go) spawns its children in the order given (the
// operator's: config, schedule, kube, global, one module/NAME per module,
// queue; cmd/addon-operator/internal/app/children.go), places a module
// actor started later (its dir appeared) before the queue, supervises them
// with the panic guardian, and on Shutdown stops them one by one in reverse
// order (the queue first, the config actor last), waiting for each to
// terminate, so that a graceful stop really leaves no actor behind. A child
// that stops when nobody stopped it is handed to the lifecycle's core as
// ChildStopped (root.go, handleTerminated; core_children.go): a module
// actor is shown failed and left out of discovery, another child is
// logged (a root without a lifecycle only logs). System
// is supervision.System, the actor system (the process's slog logger,
// the inspector, the panic guardian) with the root, and stops the whole
// tree.
//
// Started with LifecycleOptions (System.StartWith), the root also runs the
// lifecycle (actor.go), which sees every message the root gets. The
// lifecycle is a shell around a pure core (core.go, Core.Step), built by
// NewCore from CoreOptions (its settings and what it starts from: the
// modules, whether a converge was done before a restart of the root): it
// turns each message into an event (events.go), steps the core with the
// clock's time and the global hooks' enabled flags (Env, read from the
// board through published, the part of board.Reader the lifecycle reads),
// and carries out the effects the core returns (effects.go), a closed set
// that its one applier covers case by case (apply.go;
// TestApplyCoversEveryEffect fails on an effect without its case, and on
// an event without its case in Step). Every
// decision and state change is the core's; the lifecycle's blocking I/O
// (helm's release list and purges, reading the modules dirs) is done by a
// child of its own, ioActor (releases.go), whose answers are events again:
// it says what it saw of a module's dir, and the core judges it gone or
// unseen (core_dirs.go). An effect whose outcome the core waits for
// (SpawnModules) gives an event that the lifecycle's loop steps after the
// effects before it: the core is never stepped from inside its effects.
//
// At start-up (core_boot.go) the core has the config actor told which module
// actor reads which ConfigMap section (messages.SectionReaders, sent by
// apply.go), waits for the first good configuration and for the global
// actor to have configured its hooks (a global kubernetes binding that
// cannot be watched stops start-up, kubeSynced), hands the global actor its section, and waits until every
// owner has applied its first section (modules answer the config actor's
// hand-out to the operator; invalid configuration stops start-up); then it
// queues the global onStartup hooks, the start of the global hooks'
// bindings (GlobalSynchronization) and a "reload all modules". It owns the
// operator's tasks (core_tasks.go): reload all (beforeAll, then discovery),
// discovery (after the first converge the modules dirs are read again
// first, core_modules.go: the actor of a gone module stops, one of a new module
// starts; then the enabled flags and enabled scripts in run order, then
// module runs, deletes, purges and afterAll: core_discovery.go, core_plan.go), a
// ParallelModuleRun, purge and the end of a converge, after which the
// operator is ready. Afterwards (core_config.go) it reloads all modules when the
// enabled flags change or the global actor reports that the global section
// changed its values. The config actor's ConfigChanged names the changed
// module sections too, but those are not the operator's to act on: the
// config actor hands each to its module, which queues its own run (none
// when the same change reloads all modules). A module
// the reload's discovery finds disabled is told so (messages.ModuleDisabled)
// and its delete is queued, with the reason that core_disabled.go names. Each
// discovery publishes how it decided every module (board.EnabledDecision,
// core_why.go): each enabled layer's say, the enabled script's answer, and the
// reason. After the first converge the module dirs are looked at every
// DirsInterval by DirsWatch (dirswatch.go), a sub-machine of the lifecycle
// beside the Core with its own events and effects; a change queues a
// reload.
//
// `plan` (cmd/addon-operator/internal/whatif) runs this same core's
// discovery with its inputs swapped: NewCore with the candidate ConfigMap
// and what the operator published (CoreOptions), answering CheckEnabled and
// ListReleases itself.
//
// Discovery decides the modules in requirement order (module.yaml,
// RunOrder); a module whose requirements are not met is disabled before its
// enabled script is asked (the final say).
//
// With LifecycleOptions.ParallelModuleRuns > 1, discovery queues the
// weight groups in order: a ParallelModuleRun per weight of two or more
// modules, a plain run in main for a weight of one, as the original does
// (UPSTREAM §4). When an enabled module declares requirements, it puts the
// runs of every enabled module into one ParallelModuleRun instead
// (core_weights.go: runDeps says what each waits for, its required modules or
// the lower weight). The core runs a ParallelModuleRun with runGraph
// (rungraph.go, pure): a module is queued once what it waits for has
// succeeded, one going run per parallel queue, and the task ends,
// unblocking main, once every module has succeeded (core_parallel.go). A reload
// that supersedes a failing converge is told to the operator, which takes
// back what was dropped (core_converge.go). A scan whose module requirements
// form a cycle is refused: the last good set of modules stays (core_modules.go).
package operator
