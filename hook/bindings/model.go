package bindings

import (
	"slices"
	"time"
)

// Scope says where a hook lives; some bindings are allowed in one scope only.
type Scope int

const (
	// ScopeGlobal is a hook under $GLOBAL_HOOKS_DIR.
	ScopeGlobal Scope = iota + 1
	// ScopeModule is a hook under a module's hooks/ directory.
	ScopeModule
)

func (s Scope) String() string {
	switch s {
	case ScopeGlobal:
		return "global"
	case ScopeModule:
		return "module"
	default:
		return "unknown"
	}
}

// Version is the format of a binding configuration.
type Version string

const (
	// V0 is the older form without configVersion (onKubernetesEvent).
	V0 Version = "v0"
	// V1 is `configVersion: v1` (kubernetes).
	V1 Version = "v1"
)

// Type is a binding type: a key of the configuration object.
type Type string

// The binding types of spec/HOOKS.md.
const (
	OnStartup         Type = "onStartup"
	BeforeAll         Type = "beforeAll"
	AfterAll          Type = "afterAll"
	BeforeHelm        Type = "beforeHelm"
	AfterHelm         Type = "afterHelm"
	BeforeDeleteHelm  Type = "beforeDeleteHelm"
	AfterDeleteHelm   Type = "afterDeleteHelm"
	Schedule          Type = "schedule"
	Kubernetes        Type = "kubernetes"
	OnKubernetesEvent Type = "onKubernetesEvent"
	// Validating, Mutating and Conversion are shell-operator's webhook
	// bindings (spec/WEBHOOKS.md); v1 only.
	Validating Type = "kubernetesValidating"
	Mutating   Type = "kubernetesMutating"
	Conversion Type = "kubernetesCustomResourceConversion"
)

// OrderTypes returns the bindings that take a single ORDER number, in the
// order the lifecycle runs them.
func OrderTypes() []Type {
	return []Type{OnStartup, BeforeAll, AfterAll, BeforeHelm, AfterHelm, BeforeDeleteHelm, AfterDeleteHelm}
}

// DefaultQueue is the queue a binding uses when it names none.
const DefaultQueue = "main"

// QueueName is the queue that name stands for: name, or DefaultQueue when
// it is empty. It is the one place that says so; the hook parser, the
// queue, the owners and the metrics all ask it.
func QueueName(name string) string {
	if name == "" {
		return DefaultQueue
	}
	return name
}

// WatchEvent is a kind of Kubernetes watch event, as binding contexts name it.
type WatchEvent string

// The watch events of executeHookOnEvent (v1); the older form's add, update
// and delete map onto them.
const (
	Added    WatchEvent = "Added"
	Modified WatchEvent = "Modified"
	Deleted  WatchEvent = "Deleted"
)

// Config is a hook's parsed binding configuration, in either format.
type Config struct {
	Version Version
	// Orders holds the ORDER number of each ORDER binding the hook has.
	Orders     map[Type]float64
	Schedules  []ScheduleBinding
	Kubernetes []KubernetesBinding
	// Validating, Mutating and Conversion are the webhook bindings
	// (webhooks.go), in the order the hook lists them.
	Validating []AdmissionBinding
	Mutating   []AdmissionBinding
	Conversion []ConversionBinding
	Settings   Settings
}

// Order returns the ORDER number of binding t and whether the hook has it.
func (c *Config) Order(t Type) (float64, bool) {
	o, ok := c.Orders[t]
	return o, ok
}

// Settings are the hook's execution settings (v1 `settings`).
type Settings struct {
	// ExecutionMinInterval is the minimum time between two runs; 0 is unset.
	ExecutionMinInterval time.Duration
	// ExecutionBurst is how many runs may happen at once within the
	// interval; 0 is unset.
	ExecutionBurst int
}

// ScheduleBinding is one entry of `schedule`.
type ScheduleBinding struct {
	// Name is the binding name in binding contexts: `name`, else "schedule".
	Name string
	// Crontab is the expression as written (5 or 6 fields, checked at
	// --config time); the schedule actor parses it.
	Crontab              string
	AllowFailure         bool
	Queue                string
	IncludeSnapshotsFrom []string
	Group                string
}

// KubernetesBinding is one entry of `kubernetes` (v1) or `onKubernetesEvent`
// (older form, converted).
type KubernetesBinding struct {
	// Name is the binding name in binding contexts: `name`, else the
	// binding type ("kubernetes" or "onKubernetesEvent").
	Name       string
	APIVersion string
	Kind       string
	// ExecuteHookOnEvent lists the watch events that run the hook: v1
	// executeHookOnEvent, else its deprecated alias watchEvent, else all
	// three. An empty list runs the hook on no event: the binding only
	// keeps its snapshot up to date.
	ExecuteHookOnEvent           []WatchEvent
	ExecuteHookOnSynchronization bool
	// WaitForSynchronization is false only when the configuration says
	// false and names a queue other than main, as in shell-operator and
	// addon-operator: Synchronization of a main-queue binding is always
	// waited for.
	WaitForSynchronization  bool
	KeepFullObjectsInMemory bool
	// NameSelector is the list of object names to watch; empty is all.
	NameSelector []string
	// LabelSelector selects objects by label, in the canonical text form
	// labels.Parse accepts (`app=web,tier in (a,b)`); empty is everything.
	LabelSelector string
	// FieldSelector is a field selector string (`a=b,c!=d`); empty is none.
	FieldSelector string
	Namespace     NamespaceSelector
	// JqFilter is the filter as written (checked at --config time); empty
	// is none. The kube actor compiles it.
	JqFilter             string
	IncludeSnapshotsFrom []string
	AllowFailure         bool
	Queue                string
	Group                string
	// DisableDebug is the older form's flag; kept for the caller's logging.
	DisableDebug bool
	// ResynchronizationPeriod is v1 resynchronizationPeriod as written.
	// shell-operator accepts it and does nothing with it; so does this
	// operator.
	ResynchronizationPeriod string
}

// NamespaceSelector restricts a Kubernetes binding to some namespaces. The
// zero value is every namespace.
type NamespaceSelector struct {
	// Names are namespace names; empty is any.
	Names []string
	// LabelSelector selects namespaces by label, in the text form
	// labels.Parse accepts; empty is any.
	LabelSelector string
}

// AllWatchEvents is the default of executeHookOnEvent and `event`.
func AllWatchEvents() []WatchEvent { return []WatchEvent{Added, Modified, Deleted} }

// SnapshotNames names the kubernetes bindings whose current objects a
// binding context of binding carries (spec/UPSTREAM.md §8.3–8.4): for a
// binding in a group, every kubernetes binding of the group, plus its own
// includeSnapshotsFrom; otherwise its includeSnapshotsFrom. ok is false
// when it carries none. schedule says to look for binding among the
// schedule bindings first (a kubernetes binding may have the same name).
func (c *Config) SnapshotNames(binding string, schedule bool) (names []string, ok bool) {
	include, group, found := c.bindingSnapshots(binding, schedule)
	if !found {
		return nil, false
	}
	return c.snapshotsOf(include, group)
}

// snapshotsOf merges the kubernetes bindings of group with include; ok is
// false when a binding has neither.
func (c *Config) snapshotsOf(include []string, group string) (names []string, ok bool) {
	if group == "" && len(include) == 0 {
		return nil, false
	}
	if group != "" {
		for _, k := range c.Kubernetes {
			if k.Group == group {
				names = append(names, k.Name)
			}
		}
	}
	for _, n := range include {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, true
}

func (c *Config) bindingSnapshots(binding string, schedule bool) (include []string, group string, found bool) {
	findSchedule := func() bool {
		for _, s := range c.Schedules {
			if s.Name == binding {
				include, group, found = s.IncludeSnapshotsFrom, s.Group, true
			}
		}
		return found
	}
	findKubernetes := func() bool {
		for _, k := range c.Kubernetes {
			if k.Name == binding {
				include, group, found = k.IncludeSnapshotsFrom, k.Group, true
			}
		}
		return found
	}
	if schedule {
		_ = findSchedule() || findKubernetes()
	} else {
		_ = findKubernetes() || findSchedule()
	}
	return include, group, found
}

// KubernetesNames lists the names of the hook's kubernetes bindings.
func (c *Config) KubernetesNames() []string {
	out := make([]string, 0, len(c.Kubernetes))
	for _, k := range c.Kubernetes {
		out = append(out, k.Name)
	}
	return out
}

// NeedsSnapshots tells whether any schedule, kubernetes or webhook binding
// carries snapshots in its contexts (includeSnapshotsFrom or group).
func (c *Config) NeedsSnapshots() bool {
	for _, s := range c.Schedules {
		if s.Group != "" || len(s.IncludeSnapshotsFrom) > 0 {
			return true
		}
	}
	for _, k := range c.Kubernetes {
		if k.Group != "" || len(k.IncludeSnapshotsFrom) > 0 {
			return true
		}
	}
	return c.webhooksNeedSnapshots()
}
