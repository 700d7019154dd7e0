package messages

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// MainQueue is the name of the main queue, the one a task or binding that
// names no queue runs in (bindings.QueueName); hooks may name others.
const MainQueue = bindings.DefaultQueue

// TaskKind says what a task does and which actor owns it.
type TaskKind string

// Task kinds, with their owner.
const (
	// TaskGlobalBinding runs every global hook of one ORDER binding
	// (onStartup, beforeAll, afterAll): the global actor answers with one
	// TaskGlobalHook follow-up per hook, in ORDER.
	TaskGlobalBinding TaskKind = "GlobalBindingRun"
	// TaskGlobalHook runs one global hook for one binding (owner: global).
	TaskGlobalHook TaskKind = "GlobalHookRun"
	// TaskGlobalSync starts the global hooks' schedule and kubernetes
	// bindings after the global onStartup hooks, and expands into their
	// Synchronization runs (LIFECYCLE-STEPS step 2); it ends once those in
	// named queues that wait have finished too (owner: global).
	TaskGlobalSync TaskKind = "GlobalSynchronization"
	// TaskModuleRun is a module run (owner: module/NAME): onStartup if it
	// has not completed since the module was enabled, beforeHelm, helm
	// upgrade when needed, afterHelm. A failed run is retried from the start.
	TaskModuleRun TaskKind = "ModuleRun"
	// TaskModuleDelete uninstalls a module's release, then runs its
	// afterDeleteHelm hooks (owner: module/NAME).
	TaskModuleDelete TaskKind = "ModuleDelete"
	// TaskModuleHook runs one module hook for an event (owner: module/NAME).
	TaskModuleHook TaskKind = "ModuleHookRun"
	// TaskReloadAll is "reload all modules", steps 3–8 (owner: operator).
	TaskReloadAll TaskKind = "ReloadAllModules"
	// TaskDiscover is module discovery, step 4 (owner: operator).
	TaskDiscover TaskKind = "DiscoverModules"
	// TaskModulePurge uninstalls an owned release with no module dir
	// (owner: operator).
	TaskModulePurge TaskKind = "ModulePurge"
	// TaskConvergeDone ends a converge (owner: operator).
	TaskConvergeDone TaskKind = "ConvergeDone"
	// TaskParallelModuleRun runs the module runs of one weight group
	// (Modules) in the parallel queues and ends when every one of them has
	// succeeded (owner: operator; ADDON_OPERATOR_PARALLEL_MODULE_RUNS > 1).
	TaskParallelModuleRun TaskKind = "ParallelModuleRun"
)

// ParallelQueue is the name of the K-th parallel queue, as the original
// names it.
func ParallelQueue(k int) string { return fmt.Sprintf("parallel_queue_%d", k) }

// Task owners, relative to the operator root.
const (
	OwnerOperator = "operator"
	OwnerGlobal   = "global"
)

// ModuleOwner is the owner of a module's tasks.
func ModuleOwner(module string) string { return "module/" + module }

// Activation is what started a converge, as the original names it.
type Activation string

// Activations of a converge; hook and module runs of the start-up
// converge are labelled ActivationStartup too.
const (
	// ActivationStartup is the first converge, and start-up's hook runs.
	ActivationStartup Activation = "OperatorStartup"
	// ActivationGlobalValues is a converge a global hook's values change
	// queued.
	ActivationGlobalValues Activation = "GlobalValuesChanged"
	// ActivationReloadAll is any other converge: a ConfigMap change, a
	// change of the modules' dirs or of the modules enabled.
	ActivationReloadAll Activation = "ReloadAllModules"
)

// Task is a unit of work in a queue. The queue fills ID, QueuedAt, the
// retry fields and a follow-up's missing Activation; the creator fills the
// rest.
type Task struct {
	ID      uint64   `json:"id"`
	Queue   string   `json:"queue"`
	Kind    TaskKind `json:"kind"`
	Owner   string   `json:"owner"`
	Module  string   `json:"module,omitempty"`
	Hook    string   `json:"hook,omitempty"`
	Binding string   `json:"binding,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	// Cause is Reason as a bounded value fit for a metric label, for the
	// tasks that uninstall a release (ModuleDelete, ModulePurge).
	Cause string `json:"cause,omitempty"`
	// Activation is what started the work the task belongs to (the
	// original's "activation" metric label): set on the tasks that start
	// it (start-up, a reload); a follow-up (TaskDone.Next and Later) that
	// has none takes its parent's from the queue. Empty for a hook event's
	// run.
	Activation Activation `json:"activation,omitempty"`
	QueuedAt   time.Time  `json:"queuedAt"`
	// AllowFailure drops the task after a failure instead of retrying it
	// (schedule and kubernetes bindings only).
	AllowFailure bool `json:"allowFailure,omitempty"`
	// MergeKey, when set, makes a waiting task with the same key absorb
	// this one: a module's run is queued at most once.
	MergeKey string `json:"mergeKey,omitempty"`
	// Compact merges a task into a waiting one with the same MergeKey by
	// appending its binding contexts (event storms become a few runs).
	Compact bool `json:"compact,omitempty"`
	// Context is the binding context the hook gets (JSON), for event tasks.
	Context []byte `json:"-"`
	// Contexts counts the binding contexts in Context: events and ticks
	// that waited merge into one run (shown in /queue).
	Contexts int `json:"contexts,omitempty"`
	// Sync marks the Synchronization run of a kubernetes binding: values
	// it changes trigger nothing (LIFECYCLE-STEPS steps 2 and 5).
	Sync bool `json:"synchronization,omitempty"`
	// Force, on a module run, makes its helm step upgrade the release
	// even when it is up to date (a reconcile asked on its Module object);
	// a waiting run that absorbs a forced one is forced too.
	Force bool `json:"force,omitempty"`
	// Event marks the run of a hook event (messages.HookEvent): the queue
	// holds it back while discovery fails (HoldEvents).
	Event bool `json:"-"`
	// Modules are the modules of a ParallelModuleRun, in module order.
	Modules []string `json:"modules,omitempty"`
	// Group, on a module run in a parallel queue, is the ID of the
	// ParallelModuleRun it belongs to: the queue reports its outcome to
	// the operator (GroupRunReport).
	Group uint64 `json:"group,omitempty"`
	// Converge marks a task a discovery queued for its converge (module
	// runs, deletes, purges, afterAll, its end): a reload that supersedes
	// a failing converge drops them, as its own discovery decides again.
	Converge bool `json:"converge,omitempty"`
	// Supersedes, set by the queue, says what this task replaced or
	// dropped when it was queued (a failing run's retry, a failing
	// converge), and why.
	Supersedes string `json:"supersedes,omitempty"`
	// Retry state, kept on the task and shown in /queue.
	Attempts  int       `json:"attempts,omitempty"`
	LastError string    `json:"lastError,omitempty"`
	NextRetry time.Time `json:"nextRetry,omitzero"`
	Running   bool      `json:"running,omitempty"`
	// Stalled: the task failed as many times in a row as its module's
	// remediation.retries allows; it is not retried, and steps aside, until
	// a run of its module takes its place (something changed for it).
	Stalled bool `json:"stalled,omitempty"`
	// Status, while the task runs, says what it is doing when its owner
	// tells (TaskProgress): "waiting for Deployment ns/web: 1/3 available",
	// since StatusSince.
	Status      string    `json:"status,omitempty"`
	StatusSince time.Time `json:"statusSince,omitzero"`
}

// TaskProgress is sent by a task's owner to the queue while it runs the
// task, to show what the run is doing (Task.Status); an empty Status
// clears it. The status goes with the run: it is cleared when the task
// finishes or fails.
type TaskProgress struct {
	Queue  string
	ID     uint64
	Status string
	Since  time.Time
}

// Enqueue appends tasks to their queues (Task.Queue, main when empty).
type Enqueue struct {
	Tasks []Task
}

// RunTask is sent by the queue to a task's owner, with the queue as sender.
// The owner answers TaskDone when the task has finished.
type RunTask struct {
	Task Task
}

// TaskDone reports a finished task to the queue.
type TaskDone struct {
	ID    uint64
	Queue string
	// Err is empty on success. A failed task stays at the head of its
	// queue and is retried after the supervision policy's delay.
	Err string
	// Stalled, with Err, tells the queue not to retry the task: its owner
	// has failed it as many times in a row as it allows (Task.Stalled).
	Stalled bool
	// Next are inserted right after the finished task, in order, before
	// the rest of its queue: the steps a task expands into.
	Next []Task
	// Later are appended to their queues: reactions to what the task did.
	Later []Task
}

// QueueSnapshot is the published state of all queues, for /queue and
// metrics. Queues are sorted with main first.
type QueueSnapshot struct {
	Queues []QueueState `json:"queues"`
	At     time.Time    `json:"at"`
}

// QueueState is one queue, head first.
type QueueState struct {
	Name  string `json:"name"`
	Tasks []Task `json:"tasks"`
}

// NewModuleRun is the task of a module run; waiting runs of one module
// merge.
func NewModuleRun(module, reason string) Task {
	return Task{Kind: TaskModuleRun, Owner: ModuleOwner(module), Module: module,
		MergeKey: string(TaskModuleRun) + "/" + module, Reason: reason}
}

// NewReloadAll is the "reload all modules" task; waiting ones merge (the
// first one's activation stays).
func NewReloadAll(a Activation, reason string) Task {
	return Task{Kind: TaskReloadAll, Owner: OwnerOperator, MergeKey: string(TaskReloadAll), Reason: reason, Activation: a}
}

// ConvergeSuperseded tells the operator that a reload (By) queued in main
// dropped a failing converge: the tasks dropped, and the converge graph's
// task among them (Group, 0 when none). The operator forgets the graph
// and takes back the deletes that were dropped, so that its next
// discovery decides them again.
type ConvergeSuperseded struct {
	By      Task
	Dropped []Task
	Group   uint64
}

// GroupRunReport is the queue's report to the operator of a module run of
// a ParallelModuleRun (Task.Group) that ended: succeeded, failed (retried
// at the head of its queue), re-queued in its queue (afterHelm changed
// the values) or dropped (its module actor is gone).
type GroupRunReport struct {
	Group   uint64
	Module  string
	Queue   string
	Outcome GroupOutcome
	Err     string
}

// GroupOutcome is how a module run of a group ended.
type GroupOutcome string

// Outcomes of a module run of a group.
const (
	GroupRunSucceeded GroupOutcome = "succeeded"
	GroupRunFailed    GroupOutcome = "failed"
	GroupRunRequeued  GroupOutcome = "requeued"
	GroupRunDropped   GroupOutcome = "dropped"
)
