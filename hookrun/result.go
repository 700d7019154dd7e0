package hookrun

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/values"
)

// hookDone applies the result's patches to the owner's scope, once: the
// applied scope is committed at once (Committed), so that the echo of the
// config patch written next finds a config layer equal to it.
func (r *Run) hookDone(e HookDone, scope values.Scope) []Effect {
	if r.Stage != Running {
		return nil
	}
	ran := Ran{Hook: r.hook.Name, Info: r.info, Contexts: r.contexts, Result: e.Result, Err: e.Err}
	if e.Err != nil {
		return r.end(ran, Finished{Err: fmt.Errorf("hook %s: %w", r.hook.Name, e.Err)})
	}
	applied, err := Apply(scope, r.hook.Name, e.Result)
	if err != nil {
		return r.end(ran, Finished{Err: err})
	}
	commit := Committed{Scope: applied.Scope, ValuesChanged: applied.ValuesChanged}
	if applied.ConfigPatch == nil {
		return append(r.end(ran, commit), Finished{})
	}
	r.Stage = WritingConfig
	return []Effect{ran, commit, WriteConfigPatch{Hook: r.hook.Name, Patch: applied.ConfigPatch}}
}

// configWritten ends a run whose config patch was written. Its patches
// are in the scope already: nothing is applied again.
func (r *Run) configWritten(e ConfigWritten) []Effect {
	if r.Stage != WritingConfig {
		return nil
	}
	if e.Err != "" {
		return r.end(nil, Finished{Err: fmt.Errorf("hook %s: write config patch: %s", r.hook.Name, e.Err)})
	}
	return r.end(nil, Finished{})
}

// end returns the run to Idle with the effects that close it.
func (r *Run) end(first Effect, rest ...Effect) []Effect {
	r.Stage, r.hook, r.req, r.info = Idle, Hook{}, hookexec.Request{}, RunInfo{}
	if first == nil {
		return rest
	}
	return append([]Effect{first}, rest...)
}

// countContexts counts the contexts of a run's binding context array.
func countContexts(req hookexec.Request) int {
	if req.Contexts != nil {
		return len(req.Contexts)
	}
	var list []json.RawMessage
	if json.Unmarshal(req.BindingContext, &list) != nil {
		return 0
	}
	return len(list)
}

// Applied is a hook result applied to a scope.
type Applied struct {
	Scope values.Scope
	// ValuesChanged tells whether the values or the dynamic enabled flags
	// changed.
	ValuesChanged bool
	// ConfigPatch is the JSON patch to write to the ConfigMap; nil when none.
	ConfigPatch []byte
}

// Apply applies a hook's values patch and config values patch to scope. A
// patch that fails validation fails the hook run (which is then retried),
// and leaves scope as it was.
func Apply(scope values.Scope, hook string, res hookexec.Result) (Applied, error) {
	out := Applied{Scope: scope}
	if len(res.ConfigValuesPatch) > 0 {
		next, err := out.Scope.WithConfigPatch(res.ConfigValuesPatch)
		if err != nil {
			return Applied{Scope: scope}, fmt.Errorf("hook %s: config values patch: %w", hook, err)
		}
		data, err := json.Marshal(res.ConfigValuesPatch)
		if err != nil {
			return Applied{Scope: scope}, fmt.Errorf("hook %s: encode config values patch: %w", hook, err)
		}
		out.Scope, out.ConfigPatch = next, data
	}
	if len(res.ValuesPatch) > 0 {
		next, changed, err := out.Scope.WithValuesPatch(res.ValuesPatch)
		if err != nil {
			return Applied{Scope: scope}, fmt.Errorf("hook %s: values patch: %w", hook, err)
		}
		out.Scope = next
		out.ValuesChanged = changed
	}
	out.ValuesChanged = out.ValuesChanged || out.Scope.Checksum() != scope.Checksum()
	return out, nil
}

// PatchesJSON is a scope's in-memory patch layer as a JSON patch.
func PatchesJSON(scope values.Scope) json.RawMessage {
	ops := scope.Patches().Operations()
	if len(ops) == 0 {
		return json.RawMessage("[]")
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return json.RawMessage("[]")
	}
	return data
}
