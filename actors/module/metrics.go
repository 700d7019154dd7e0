package module

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// Metrics observes a module's work; the process's Prometheus metrics
// implement it.
type Metrics interface {
	hookrun.Metrics
	// ModuleRun and Helm observe a module run and its helm upgrade; a is
	// the module run's activation.
	ModuleRun(module string, a messages.Activation, took time.Duration, err error)
	Helm(module string, a messages.Activation, took time.Duration, err error)
	// ModuleDeleteFailed counts a failed delete of the module; err is why.
	ModuleDeleteFailed(module string, err error)
	// ModuleFailed is told that a module cannot start (its hooks could not
	// be configured): it is left out while they fail, and they are
	// configured again after the retry delay. A nil err says the failure
	// is over: the hooks configured, or the module's dir was removed.
	ModuleFailed(module string, err error)
	// Destructive counts a destructive action on the module's release
	// (action: worker.ActionUninstall, ActionAdopt, ActionClear).
	Destructive(module string, d worker.Destructive)
	// Maintenance is told the module's maintenance state: "" (Managed) or
	// "NoResourceReconciliation".
	Maintenance(module, state string)
	// Stalled is told that the module stalled (on) or runs again
	// (module_stalled{module}).
	Stalled(module string, on bool)
	// DriftDetected counts a release object found drifted (new, changed,
	// or back after a restore).
	DriftDetected(module, kind string)
	// DriftRestore counts a restore: outcome "restored", "failed" or
	// "given_up".
	DriftRestore(module, kind, outcome string)
	// DriftedObjects is told how many of the module's objects drift now.
	DriftedObjects(module string, n int)
	// ReleaseChecked counts a periodic check of the module's release.
	ReleaseChecked(module string)
	// ReadyWait counts a wait for the release's workloads after helm:
	// outcome "ready", "timeout" or "failed", and how long it took.
	ReadyWait(module, outcome string, took time.Duration)
}
