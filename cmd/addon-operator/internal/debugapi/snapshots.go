package debugapi

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/values/mask"
)

// snapshots returns the current objects of a hook's kubernetes bindings
// (owner "global" or "module/NAME") as the kube actor published them: by
// binding, each object as {"object": ..., "filterResult": ...}, a Secret's
// data masked (see maskedSnapshot).
func snapshots(b board.Reader, owner, hook string) (map[string][]json.RawMessage, error) {
	snaps, ok := b.Snapshots(owner, hook)
	if !ok {
		return nil, fmt.Errorf("no kubernetes bindings watched for hook %q of %s (no such hook, no kubernetes bindings, or its module is disabled)", hook, owner)
	}
	out := map[string][]json.RawMessage{}
	secrets := b.Secrets()
	for binding, items := range snaps {
		for _, it := range items {
			it = maskedSnapshot(it, secrets)
			obj, err := json.Marshal(map[string]json.RawMessage{"object": orNull(it.Object), "filterResult": orNull(it.FilterResult)})
			if err != nil {
				return nil, fmt.Errorf("snapshot of %s %s binding %s: %w", owner, hook, binding, err)
			}
			out[binding] = append(out[binding], obj)
		}
	}
	return out, nil
}

// maskedSnapshot masks a Secret's data and stringData, and its whole
// filter result (a jq filter may have picked its data out); the password
// values are masked wherever they show up. The snapshots hooks get are the
// board's, unchanged.
func maskedSnapshot(it bctx.ObjectAndFilterResult, secrets mask.Secrets) bctx.ObjectAndFilterResult {
	var obj map[string]any
	if len(it.Object) > 0 && json.Unmarshal(it.Object, &obj) == nil {
		masked, err := json.Marshal(mask.Object(obj, mask.Manifest, secrets))
		if err != nil {
			masked = json.RawMessage("null")
		}
		secret := mask.Kind(obj) == "Secret"
		it.Object = masked
		if secret && len(it.FilterResult) > 0 {
			it.FilterResult, _ = json.Marshal(mask.Bytes(it.FilterResult))
			return it
		}
	}
	var result any
	if len(it.FilterResult) > 0 && len(secrets) > 0 && json.Unmarshal(it.FilterResult, &result) == nil {
		if masked, err := json.Marshal(secrets.Document(result)); err == nil {
			it.FilterResult = masked
		}
	}
	return it
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
