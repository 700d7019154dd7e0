package queue

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/addon-actors/addon-operator/messages"
)

// DefaultContextBound is the binding context bytes one waiting run may
// hold before its contexts merge by object (Options.ContextBound).
const DefaultContextBound = 256 << 20

// contextBound bounds the binding contexts of one waiting run that
// absorbs the event runs of its hook: past max bytes, its Event contexts
// merge by object, each object's latest event replacing the earlier ones
// (the hook still hears of every object that changed, with its latest
// state); a context naming no object (keepFullObjectsInMemory: false) is
// merged only with an identical one. Nothing is dropped otherwise, so the
// bound can be passed by distinct contexts; it is not a cap.
type contextBound struct{ max int }

// merge appends t's contexts to into's and reports whether the result
// passed the bound and was merged by object.
func (b contextBound) merge(into *messages.Task, t messages.Task) bool {
	into.Context = appendContexts(into.Context, t.Context)
	into.Contexts += t.Contexts
	if b.max <= 0 || len(into.Context) <= b.max {
		return false
	}
	merged, n, ok := mergeByObject(into.Context)
	if !ok {
		return false
	}
	into.Context, into.Contexts = merged, n
	return true
}

// appendContexts joins two JSON arrays of binding contexts. It appends to
// a's backing array when there is room (the merged array of a waiting run
// is its own), so that a run absorbing n events costs O(n), not O(n²).
func appendContexts(a, b []byte) []byte {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	switch {
	case len(b) <= 2:
		return a
	case len(a) <= 2:
		return b
	}
	if cap(a)-len(a) < len(b) {
		grown := make([]byte, len(a), 2*(len(a)+len(b)))
		copy(grown, a)
		a = grown
	}
	a = append(a[:len(a)-1], ',')
	return append(a, b[1:]...)
}

// mergeByObject keeps, of the contexts in data, the latest for each
// binding and object (or identical text, for a context without an
// object), in the order of those latest ones; false when data is not a
// JSON array.
func mergeByObject(data []byte) ([]byte, int, bool) {
	var contexts []json.RawMessage
	if err := json.Unmarshal(data, &contexts); err != nil {
		return nil, 0, false
	}
	seen := map[string]bool{}
	kept := make([]json.RawMessage, 0, len(contexts))
	for i := len(contexts) - 1; i >= 0; i-- {
		k := objectKey(contexts[i])
		if !seen[k] {
			seen[k] = true
			kept = append(kept, contexts[i])
		}
	}
	slices.Reverse(kept)
	out, err := json.Marshal(kept)
	if err != nil {
		return nil, 0, false
	}
	return out, len(kept), true
}

// objectKey identifies what a context is about: its binding and the
// object of an Event; any other context is its own text.
func objectKey(c json.RawMessage) string {
	var head struct {
		Binding    string `json:"binding"`
		Type       string `json:"type"`
		WatchEvent string `json:"watchEvent"`
		Object     *struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			} `json:"metadata"`
		} `json:"object"`
	}
	if json.Unmarshal(c, &head) != nil || head.Type != "Event" || head.Object == nil || head.Object.Metadata.Name == "" {
		return "text\x00" + string(c)
	}
	o := head.Object
	return "object\x00" + head.Binding + "\x00" + o.APIVersion + "\x00" + o.Kind + "\x00" + o.Metadata.Namespace + "\x00" + o.Metadata.Name
}

// noteMerged records that the waiting run id merged by object; a run is
// reported once, when it first passes the bound.
func (l *line) noteMerged(id uint64) {
	if l.mergingID != id {
		l.merged, l.mergingID = true, id
	}
}

// TakeMergedByObject returns the queues where a waiting run passed the
// bound and began merging its contexts by object since the last call.
func (q *Queues) TakeMergedByObject() []string {
	var out []string
	for name, l := range q.lines {
		if l.merged {
			out = append(out, name)
			l.merged = false
		}
	}
	slices.Sort(out)
	return out
}

// SetContextBound sets the bound of every queue's waiting runs, those
// made later included (0: DefaultContextBound; negative: none).
func (q *Queues) SetContextBound(max int) {
	if max == 0 {
		max = DefaultContextBound
	}
	q.bound = contextBound{max: max}
	for _, l := range q.lines {
		l.bound = q.bound
	}
}
