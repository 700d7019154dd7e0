package owner

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
)

// RunInfo is what a hook run is for: its binding and queue, and whether a
// failure is allowed (then it is counted apart and dropped).
type RunInfo struct {
	Binding      string
	Queue        string
	AllowFailure bool
}

// HookRun is one finished hook run, for metrics.
type HookRun struct {
	Module string // empty for a global hook
	Hook   string
	Info   RunInfo
	Result hookexec.Result
	Err    error
}

// Metrics observes the owners' work; the process's Prometheus metrics
// implement it.
type Metrics interface {
	HookRun(r HookRun)
	ModuleRun(module string, took time.Duration, err error)
	Helm(module string, took time.Duration, err error)
	// ModuleFailed is told that a module cannot start (its hooks could not
	// be configured): it is left out until the next start. A nil err says
	// the failed module is gone (its dir was removed).
	ModuleFailed(module string, err error)
	// Destructive counts a destructive action on the module's release
	// (action: ActionUninstall, ActionAdopt, ActionClear).
	Destructive(module string, d worker.Destructive)
}

// RunInfoOf is the run information of a task.
func RunInfoOf(binding, queue string, allowFailure bool) RunInfo {
	if queue == "" {
		queue = "main"
	}
	return RunInfo{Binding: binding, Queue: queue, AllowFailure: allowFailure}
}
