package debugapi

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/board"
)

// snapshots returns the current objects of a hook's kubernetes bindings
// (owner "global" or "module/NAME") as the kube actor published them: by
// binding, each object as {"object": ..., "filterResult": ...}.
func snapshots(b *board.Board, owner, hook string) (map[string][]json.RawMessage, error) {
	snaps, ok := b.Snapshots(owner, hook)
	if !ok {
		return nil, fmt.Errorf("no kubernetes bindings watched for hook %q of %s (no such hook, no kubernetes bindings, or its module is disabled)", hook, owner)
	}
	out := map[string][]json.RawMessage{}
	for binding, items := range snaps {
		for _, it := range items {
			obj, err := json.Marshal(map[string]json.RawMessage{"object": orNull(it.Object), "filterResult": orNull(it.FilterResult)})
			if err != nil {
				return nil, fmt.Errorf("snapshot of %s %s binding %s: %w", owner, hook, binding, err)
			}
			out[binding] = append(out[binding], obj)
		}
	}
	return out, nil
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
