package bctx

import (
	"encoding/json"
	"fmt"
)

// wireContext is one v1 context as Marshal writes it.
type wireContext struct {
	Binding      string                `json:"binding"`
	Type         Type                  `json:"type"`
	WatchEvent   string                `json:"watchEvent"`
	GroupName    string                `json:"groupName"`
	Object       json.RawMessage       `json:"object"`
	FilterResult json.RawMessage       `json:"filterResult"`
	Objects      []wireItem            `json:"objects"`
	Snapshots    map[string][]wireItem `json:"snapshots"`
	FromVersion  string                `json:"fromVersion"`
	ToVersion    string                `json:"toVersion"`
	Review       *struct {
		Request json.RawMessage `json:"request"`
	} `json:"review"`
}

type wireItem struct {
	Object       json.RawMessage `json:"object"`
	FilterResult json.RawMessage `json:"filterResult"`
}

func (w wireItem) item() ObjectAndFilterResult {
	return ObjectAndFilterResult{Object: w.Object, FilterResult: w.FilterResult}
}

func items(list []wireItem) []ObjectAndFilterResult {
	out := make([]ObjectAndFilterResult, len(list))
	for i, w := range list {
		out[i] = w.item()
	}
	return out
}

// Unmarshal reads a v1 binding context array written by Marshal.
func Unmarshal(data []byte) ([]Context, error) {
	var wire []wireContext
	if err := json.Unmarshal(data, &wire); err != nil {
		return nil, fmt.Errorf("binding context: %w", err)
	}
	out := make([]Context, len(wire))
	for i, w := range wire {
		c := Context{Binding: w.Binding, Type: w.Type, WatchEvent: w.WatchEvent, GroupName: w.GroupName,
			Item: ObjectAndFilterResult{Object: w.Object, FilterResult: w.FilterResult}}
		if w.Type == Synchronization {
			c.Objects = items(w.Objects)
		}
		if w.Type == Conversion {
			c.FromVersion, c.ToVersion = w.FromVersion, w.ToVersion
		}
		if w.Review != nil {
			c.Request = w.Review.Request
		}
		if w.Snapshots != nil {
			c.Snapshots = Snapshots{}
			for name, list := range w.Snapshots {
				c.Snapshots[name] = items(list)
			}
		}
		out[i] = c
	}
	return out, nil
}

// SnapshotNames says which kubernetes bindings' snapshots a context of the
// hook carries: ok is false when it carries none.
type SnapshotNames func(c Context) (names []string, ok bool)

// Refill gives every context the snapshots it carries as they are now
// (current holds every kubernetes binding of the hook), so that the
// contexts of a run that waited in a queue, or of runs merged into one,
// all show the objects as they are when the hook starts. A Group context
// followed by one of the same group is dropped: the later one says the
// same, with the same snapshots.
func Refill(contexts []Context, names SnapshotNames, current Snapshots) []Context {
	out := make([]Context, 0, len(contexts))
	for i, c := range contexts {
		if c.Type == Group && i+1 < len(contexts) && contexts[i+1].Type == Group && contexts[i+1].GroupName == c.GroupName {
			continue
		}
		if list, ok := names(c); ok {
			c.Snapshots = Pick(current, list)
		}
		out = append(out, c)
	}
	return out
}

// Pick returns the snapshots of the named bindings ({} for none); a name
// current lacks gets an empty list.
func Pick(current Snapshots, names []string) Snapshots {
	out := make(Snapshots, len(names))
	for _, n := range names {
		out[n] = current[n]
		if out[n] == nil {
			out[n] = []ObjectAndFilterResult{}
		}
	}
	return out
}
