package board

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Board holds the published state of one operator.
type Board struct {
	global         one[values.Snapshot]
	dynamicEnabled one[map[string]bool]
	enabledModules one[[]string]
	queues         one[messages.QueueSnapshot]
	modules        keyed[string, ModuleState]
	hooks          keyed[string, HookStats]
	moduleValues   keyed[string, values.Snapshot]
	dirErrors      one[map[string]string]
	config         one[ConfigState]
	snapshots      keyed[hookKey, map[string]Objects]
	webhooks       keyed[string, []WebhookState]
	patches        sync.Map // owner -> json.RawMessage of its in-memory patch layer
	passwords      keyed[string, mask.Paths]
	configSecrets  keyed[string, mask.Paths] // paths a ModuleConfig's settingsFrom sets, by owner
	ready          atomic.Bool
	readyCh        chan struct{}

	// enabledDecisions: how the last discovery decided (why.go).
	enabledDecisions one[map[string]EnabledDecision]
	// converge: what the converge in flight waits for (converge.go).
	converge one[ConvergeState]

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every publication
}

// The phases a module's state is published in: its actor's (starting,
// idle, failed when its hooks cannot be configured) and the debug API's
// for a dir not seen since start-up. Readers match these, never literals.
const (
	PhaseStarting = "starting"
	PhaseIdle     = "idle"
	PhaseFailed   = "failed"
	PhaseUnseen   = "unseen"
)

// ModuleState is a module as the operator and debug views show it.
type ModuleState struct {
	Name        string `json:"name"`
	Enabled     bool   `json:"enabled"`
	Phase       string `json:"phase"`
	LastRun     string `json:"lastRun,omitempty"`
	LastError   string `json:"lastError,omitempty"`
	Revision    int    `json:"revision,omitempty"`
	StartupDone bool   `json:"startupDone"`
	// Tasks counts the tasks the module actor has finished.
	Tasks int `json:"tasks"`
	// DirError says why the module's dir cannot be seen now (a dangling
	// symlink): the module is kept as it was until it can.
	DirError string `json:"dirError,omitempty"`
	// Maintenance is the module's maintenance state: "NoResourceReconciliation"
	// while its ConfigMap key "xMaintenance" stops helm and the healing of
	// absent objects (its hooks run), empty when it is Managed.
	Maintenance string `json:"maintenance,omitempty"`
	// Stalled: its module runs failed as many times in a row as
	// remediation.retries allows; none is retried until something changes
	// for it (its config section, values, dir, a requirement, a reset).
	Stalled bool `json:"stalled,omitempty"`
	// Remedied says what followed its last failed helm step
	// (remediation): "rolled back to revision 3", "uninstalled", or why
	// that failed.
	Remedied string `json:"remedied,omitempty"`
	// Run is the last module run or delete, phase by phase.
	Run *RunRecord `json:"run,omitempty"`
	// Helm is what the last helm step did and why.
	Helm *HelmRecord `json:"helm,omitempty"`
	// Drift are the release's objects that do not hold what its manifest
	// sets, as the last drift check found them.
	Drift []DriftState `json:"drift,omitempty"`
	// Wait is set while the helm step waits for the release's workloads
	// (ADDON_OPERATOR_WAIT_READY, module.yaml readiness).
	Wait *WaitState `json:"wait,omitempty"`
	// Webhooks are the webhook bindings its hooks declare, registered
	// while it is enabled (Ready is not set here: Board.Webhooks has
	// those served).
	Webhooks []WebhookState `json:"webhooks,omitempty"`
}

// WaitState is a helm step waiting for its release's workloads.
type WaitState struct {
	// Since is when the wait was first seen waiting.
	Since time.Time `json:"since"`
	// NotReady are the objects not ready yet, as "Deployment ns/web: 1/3
	// available".
	NotReady []string `json:"notReady"`
}

// Text says what the wait waits for: "waiting for Deployment ns/web: 1/3
// available", with "(+N more)" when more objects are not ready; readers
// add how long (WaitedFor).
func (w WaitState) Text() string {
	if len(w.NotReady) == 0 {
		return "waiting for the release's workloads"
	}
	text := "waiting for " + w.NotReady[0]
	if n := len(w.NotReady) - 1; n > 0 {
		text += fmt.Sprintf(" (+%d more)", n)
	}
	return text
}

// WaitedFor is how long something has waited since since at now, in
// whole seconds ("" when since is unknown): "40s", "2m5s".
func WaitedFor(since, now time.Time) string {
	if since.IsZero() {
		return ""
	}
	return max(now.Sub(since), 0).Round(time.Second).String()
}

// DriftState is one drifted object of a module's release.
type DriftState struct {
	Object string `json:"object"`
	// Fields are "path: rendered → live" lines.
	Fields []string `json:"fields"`
	// Since is when the drift was first seen (RFC 3339).
	Since string `json:"since"`
	// Restores counts the restores of this drift that it came back from.
	Restores int `json:"restores,omitempty"`
	// GivenUp are the fields no longer restored: another writer sets them
	// back after each restore.
	GivenUp []string `json:"givenUp,omitempty"`
}

// ConfigState is the ConfigMap as the configuration in force stands to it.
type ConfigState struct {
	// ConfigMap is namespace/name.
	ConfigMap string `json:"configMap"`
	// Missing is true while the ConfigMap is deleted and the last good
	// configuration stays in force.
	Missing bool `json:"missing"`
	// Since is when it went missing (RFC 3339), when Missing.
	Since string `json:"since,omitempty"`
}

// New returns an empty board.
func New() *Board { return &Board{readyCh: make(chan struct{}), changed: make(chan struct{})} }

// notify wakes everyone waiting in WaitFor.
func (b *Board) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.changed)
	b.changed = make(chan struct{})
}

// WaitFor blocks until cond holds, checking it after every publication.
func (b *Board) WaitFor(ctx context.Context, cond func(*Board) bool) error {
	for {
		b.mu.Lock()
		changed := b.changed
		b.mu.Unlock()
		if cond(b) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SetGlobal publishes the global values (global actor only).
func (b *Board) SetGlobal(s values.Snapshot, dynamicEnabled map[string]bool) {
	b.global.store(s)
	b.dynamicEnabled.store(dynamicEnabled)
	b.notify()
}

// Global returns the published global values.
func (b *Board) Global() values.Snapshot {
	if s, ok := b.global.loaded(); ok {
		return s
	}
	return values.Snapshot{Key: values.GlobalKey}
}

// DynamicEnabled returns the enabled flags global hooks set in memory.
func (b *Board) DynamicEnabled() map[string]bool {
	return b.dynamicEnabled.load()
}

// SetEnabledModules publishes the enabled modules in run order (operator
// only).
func (b *Board) SetEnabledModules(names []string) {
	b.enabledModules.store(names)
	b.notify()
}

// EnabledModules returns the enabled modules in run order.
func (b *Board) EnabledModules() []string {
	return b.enabledModules.load()
}

// SetQueues publishes the queues (queue actor only).
func (b *Board) SetQueues(s messages.QueueSnapshot) {
	b.queues.store(s)
	b.notify()
}

// Queues returns the published queues.
func (b *Board) Queues() messages.QueueSnapshot {
	return b.queues.load()
}

// SetModule publishes one module's state (its module actor only).
func (b *Board) SetModule(s ModuleState) {
	b.modules.set(s.Name, s)
	b.notify()
}

// RemoveModule forgets a module whose dir is gone (its module actor, as
// it stops).
func (b *Board) RemoveModule(name string) {
	b.modules.delete(name)
	b.moduleValues.delete(name)
	b.patches.Delete(name)
	b.passwords.delete(name)
	b.notify()
}

// HookStats are one hook's runs, keyed "owner:hook" on the board.
type HookStats struct {
	Runs      int    `json:"runs"`
	Failures  int    `json:"failures"`
	LastError string `json:"lastError,omitempty"`
	// Contexts counts the binding contexts the runs got (compaction shows
	// as more contexts than runs).
	Contexts int `json:"contexts"`
}

// RecordHookRun counts a finished run of a hook (its owner only).
func (b *Board) RecordHookRun(owner, hook string, contexts int, err error) {
	key := owner + ":" + hook
	b.hooks.change(key, func(st HookStats, _ bool) HookStats {
		st.Runs++
		st.Contexts += contexts
		if err != nil {
			st.Failures++
			st.LastError = err.Error()
		}
		return st
	})
	b.notify()
}

// Hooks returns the hook statistics by "owner:hook".
func (b *Board) Hooks() map[string]HookStats { return b.hooks.copy() }

// SetModuleValues publishes a module's values (its module actor only).
func (b *Board) SetModuleValues(module string, s values.Snapshot) {
	b.moduleValues.set(module, s)
}

// SetPatches publishes an owner's in-memory values patches ("global" or a
// module name), as a JSON patch.
func (b *Board) SetPatches(owner string, patch json.RawMessage) { b.patches.Store(owner, patch) }

// Patches returns an owner's published patches ([] when none).
func (b *Board) Patches(owner string) json.RawMessage {
	if p, ok := b.patches.Load(owner); ok {
		return p.(json.RawMessage)
	}
	return json.RawMessage("[]")
}

// ModuleValues returns a module's published values.
func (b *Board) ModuleValues(module string) (values.Snapshot, bool) {
	return b.moduleValues.get(module)
}

// Module returns one module's published state.
func (b *Board) Module(name string) (ModuleState, bool) { return b.modules.get(name) }

// Modules returns every module's published state.
func (b *Board) Modules() map[string]ModuleState { return b.modules.copy() }

// SetDirErrors publishes the modules whose dir cannot be seen, with the
// reason (operator only).
func (b *Board) SetDirErrors(byModule map[string]string) {
	b.dirErrors.store(byModule)
	b.notify()
}

// DirErrors returns the modules whose dir cannot be seen, with the reason.
func (b *Board) DirErrors() map[string]string {
	return b.dirErrors.load()
}

// SetConfig publishes the ConfigMap's state (config actor only).
func (b *Board) SetConfig(s ConfigState) {
	b.config.store(s)
	b.notify()
}

// Config returns the ConfigMap's published state.
func (b *Board) Config() ConfigState {
	return b.config.load()
}

// SetReady marks the first converge done (operator only).
func (b *Board) SetReady() {
	if !b.ready.Swap(true) {
		close(b.readyCh)
		b.notify()
	}
}

// ReadyCh is closed when the first converge is done.
func (b *Board) ReadyCh() <-chan struct{} { return b.readyCh }

// Ready tells whether the first converge is done.
func (b *Board) Ready() bool { return b.ready.Load() }
