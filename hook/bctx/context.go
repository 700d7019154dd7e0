package bctx

import "encoding/json"

// Type is the `type` field of a v1 binding context.
type Type string

// The v1 binding context types.
const (
	Synchronization Type = "Synchronization"
	Event           Type = "Event"
	Schedule        Type = "Schedule"
	Group           Type = "Group"
)

// ObjectAndFilterResult is one Kubernetes object as a binding context carries
// it: the object (absent when the binding does not keep full objects) and the
// result of the binding's jqFilter (absent when it has none). Both hold valid
// JSON or are empty.
type ObjectAndFilterResult struct {
	Object       json.RawMessage
	FilterResult json.RawMessage
}

// Snapshots maps a kubernetes binding's name to its current objects.
type Snapshots map[string][]ObjectAndFilterResult

// Context is one element of a v1 binding context. Build it with the
// functions below rather than by hand: they set exactly the fields each kind
// of context has.
type Context struct {
	Binding    string
	Type       Type
	WatchEvent string
	// GroupName is the group of a Group context.
	GroupName string
	// Item is the object of an Event context.
	Item ObjectAndFilterResult
	// Objects of a Synchronization context; written as [] when empty.
	Objects []ObjectAndFilterResult
	// Snapshots, written when not nil (an empty list per binding is [] then).
	Snapshots Snapshots
	// FromVersion and ToVersion are the rule of a Conversion context.
	FromVersion string
	ToVersion   string
	// Request is a webhook context's `review.request`, a JSON object
	// (webhook.go); absent when empty.
	Request json.RawMessage
}

// Order is the context of an ORDER binding (onStartup, beforeAll, afterAll,
// beforeHelm, afterHelm, beforeDeleteHelm, afterDeleteHelm): just the binding, plus the
// snapshots when not nil. onStartup gets none; the others get every
// kubernetes binding of the hook, {} when it has none (as the original).
func Order(binding string, snapshots Snapshots) Context {
	return Context{Binding: binding, Snapshots: snapshots}
}

// ScheduleTick is the context of a schedule binding firing.
func ScheduleTick(name string, snapshots Snapshots) Context {
	return Context{Binding: name, Type: Schedule, Snapshots: snapshots}
}

// Sync is the Synchronization context of a kubernetes binding: all
// existing objects.
func Sync(name string, objects []ObjectAndFilterResult, snapshots Snapshots) Context {
	if objects == nil {
		objects = []ObjectAndFilterResult{}
	}
	return Context{Binding: name, Type: Synchronization, Objects: objects, Snapshots: snapshots}
}

// WatchEventContext is the Event context of a kubernetes binding: one
// object and the watch event (Added, Modified, Deleted).
func WatchEventContext(name, watchEvent string, item ObjectAndFilterResult, snapshots Snapshots) Context {
	return Context{Binding: name, Type: Event, WatchEvent: watchEvent, Item: item, Snapshots: snapshots}
}

// GroupContext is the context of a binding that belongs to a group, for
// any of its events and its Synchronization: the binding's name, the group
// name and the snapshots of every kubernetes binding in the group, never
// objects (shell-operator's v1 Group context).
func GroupContext(binding, group string, snapshots Snapshots) Context {
	if snapshots == nil {
		snapshots = Snapshots{}
	}
	return Context{Binding: binding, Type: Group, GroupName: group, Snapshots: snapshots}
}
