package app

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/chartrun/drift"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values/mask"
)

// driftedObjects turns chartrun's drift into the messages the module actor
// keeps (values as JSON, each field shown as the log and module why do,
// what may hold credentials masked: drift.Shown).
func driftedObjects(found []chartrun.ObjectDrift, secrets mask.Secrets) []messages.DriftedObject {
	var out []messages.DriftedObject
	for _, d := range found {
		o := messages.DriftedObject{Object: d.Object.String(), Kind: d.Object.Kind, Ref: messages.ObjectRef{
			APIVersion: d.Object.APIVersion, Kind: d.Object.Kind, Namespace: d.Object.Namespace, Name: d.Object.Name}}
		for _, f := range d.Fields {
			rendered, _ := json.Marshal(f.Rendered)
			var live json.RawMessage
			if !f.Missing {
				live, _ = json.Marshal(f.Live)
			}
			o.Fields = append(o.Fields, messages.DriftField{Path: f.Path, Pointer: f.Pointer,
				Shown: drift.Shown(f, secrets), Rendered: rendered, Live: live,
				Missing: f.Missing, MissingParents: f.MissingParents, Secret: f.Secret})
		}
		out = append(out, o)
	}
	return out
}

// objectDrift is the way back, for a restore.
func objectDrift(d messages.DriftedObject) (chartrun.ObjectDrift, error) {
	o := chartrun.ObjectDrift{Object: chartrun.Object{APIVersion: d.Ref.APIVersion, Kind: d.Ref.Kind,
		Namespace: d.Ref.Namespace, Name: d.Ref.Name}}
	for _, f := range d.Fields {
		field := drift.Field{Path: f.Path, Pointer: f.Pointer, Missing: f.Missing, MissingParents: f.MissingParents,
			Secret: f.Secret}
		if err := json.Unmarshal(f.Rendered, &field.Rendered); err != nil {
			return o, fmt.Errorf("restore %s %s: %w", d.Object, f.Path, err)
		}
		if !f.Missing {
			if err := json.Unmarshal(f.Live, &field.Live); err != nil {
				return o, fmt.Errorf("restore %s %s: %w", d.Object, f.Path, err)
			}
		}
		o.Fields = append(o.Fields, field)
	}
	return o, nil
}
