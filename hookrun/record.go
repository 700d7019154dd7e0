package hookrun

import (
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
)

// RunInfo is what a hook run is for: its binding and queue, whether a
// failure is allowed (then it is counted apart and dropped), and its
// task's activation.
type RunInfo struct {
	Binding      string
	Queue        string
	AllowFailure bool
	Activation   messages.Activation // the task's
}

// RunInfoOf is the run information of a task. Its queue is the task's, as
// the queue named it when it was queued (bindings.QueueName, the one place
// an empty queue name becomes main).
func RunInfoOf(binding, queue string, allowFailure bool, a messages.Activation) RunInfo {
	return RunInfo{Binding: binding, Queue: queue, AllowFailure: allowFailure, Activation: a}
}

// HookRun is one finished hook run, for metrics.
type HookRun struct {
	Module string // empty for a global hook
	Hook   string
	Info   RunInfo
	Result hookexec.Result
	Err    error
}

// Metrics observes hook runs; the process's Prometheus metrics implement
// it (and the module actor's wider interface).
type Metrics interface {
	HookRun(r HookRun)
}
