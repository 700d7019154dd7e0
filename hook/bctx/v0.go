package bctx

import "encoding/json"

// V0Context is one element of the older binding context (hooks without
// configVersion).
type V0Context struct {
	Binding           string `json:"binding"`
	ResourceEvent     string `json:"resourceEvent,omitempty"`
	ResourceNamespace string `json:"resourceNamespace,omitempty"`
	ResourceKind      string `json:"resourceKind,omitempty"`
	ResourceName      string `json:"resourceName,omitempty"`
}

// V0Binding is the older context of an ORDER or schedule binding:
// `{"binding": name}`.
func V0Binding(name string) V0Context { return V0Context{Binding: name} }

// V0Event is the older context of an onKubernetesEvent binding. watchEvent is
// Added, Modified or Deleted (as the monitor reports it) and becomes add,
// update or delete.
func V0Event(name, watchEvent, namespace, kind, objectName string) V0Context {
	return V0Context{
		Binding:           name,
		ResourceEvent:     v0Event(watchEvent),
		ResourceNamespace: namespace,
		ResourceKind:      kind,
		ResourceName:      objectName,
	}
}

func v0Event(watchEvent string) string {
	switch watchEvent {
	case "Added":
		return "add"
	case "Modified":
		return "update"
	case "Deleted":
		return "delete"
	default:
		return watchEvent
	}
}

// MarshalV0 encodes the older binding context array.
func MarshalV0(contexts []V0Context) ([]byte, error) {
	if contexts == nil {
		contexts = []V0Context{}
	}
	return json.Marshal(contexts)
}
