package moduleobject

import "time"

// Input is what the operator has published of one module (or of the global
// hooks, Global set), read at one moment.
type Input struct {
	Name string
	// Global: the object of the global hooks ("global"); it is never
	// disabled and has no release.
	Global bool
	// Decided: a discovery has decided the module's enabled state; Enabled
	// and EnabledBy are what it decided, and the layer that had the last
	// say ("ConfigMap", "enabled script", "requirements", ...).
	Decided   bool
	Enabled   bool
	EnabledBy string
	// Unmet are the requirements that disabled it.
	Unmet []string
	// Unseen: the module's dir cannot be seen now (DirError says why).
	Unseen   bool
	DirError string
	// Maintenance is its maintenance state, "" when managed.
	Maintenance string
	// Run is the last run or delete; nil before the first one.
	Run *Run
	// Release is what helm last did of the module's release.
	Release Release
	// Retry is the failed task waiting at the head of its queue.
	Retry *Retry
	// WaitingFor are the modules its run waits for in the converge.
	WaitingFor []string
	// WaitingReady says what the helm step's readiness wait waits for, ""
	// when it does not wait.
	WaitingReady string
	// Drifted counts the release's drifted objects, Restores the restores
	// done and GivenUp the fields no longer restored.
	Drifted, Restores, GivenUp int
	// Webhooks and WebhooksReady count its webhook bindings and those
	// served.
	Webhooks, WebhooksReady int
	// Stalled: its failing run is held until something changes for it.
	Stalled bool
}

// Run is a module's last run or delete.
type Run struct {
	Kind    string
	Started time.Time
	// Ended is zero while it runs.
	Ended time.Time
	Err   string
}

// Release is the module's helm release as the last helm step left it.
type Release struct {
	Name         string `json:"name,omitempty"`
	Revision     int    `json:"revision,omitempty"`
	ChartVersion string `json:"chartVersion,omitempty"`
	// Action is what the last helm step did ("installed", "upgraded",
	// "skipped") at At; it is not shown in the status.
	Action string    `json:"-"`
	At     time.Time `json:"-"`
}

// Retry is a failed task of the module waiting for its retry.
type Retry struct {
	Attempts  int
	NextRetry time.Time
	Running   bool
	LastError string
}

// running: a run has started and not ended.
func (in Input) running() bool { return in.Run != nil && in.Run.Ended.IsZero() }

// failed: the last run ended with an error.
func (in Input) failed() bool { return in.Run != nil && !in.Run.Ended.IsZero() && in.Run.Err != "" }
