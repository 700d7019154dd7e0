package hookrun

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/values"
)

// OrderContext is the binding context of an ORDER binding run, in the
// hook's own format: [{"binding":"onStartup"}] exactly; the other ORDER
// bindings of a v1 hook carry the snapshots of every kubernetes binding of
// the hook ({} when it has none), as the original gives them.
func OrderContext(h Hook, binding bindings.Type, snapshots bctx.Snapshots) []byte {
	if h.Config != nil && h.Config.Version == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Binding(string(binding))})
		return data
	}
	if binding == bindings.OnStartup {
		return bctx.Marshal([]bctx.Context{bctx.Order(string(binding), nil)})
	}
	var names []string
	if h.Config != nil {
		names = h.Config.KubernetesNames()
	}
	return bctx.Marshal([]bctx.Context{bctx.Order(string(binding), bctx.Pick(snapshots, names))})
}

// RefillContexts gives the binding contexts of an event, schedule or
// webhook run the snapshots they carry as they are now (current: every
// kubernetes binding of the hook), as an array that the runner writes as a
// stream (the contexts share current's lists). False when it cannot read
// them: the run then reads data as it is.
func RefillContexts(h Hook, data []byte, current bctx.Snapshots) (bctx.Array, bool) {
	contexts, err := bctx.Unmarshal(data)
	if err != nil || h.Config == nil {
		return nil, false
	}
	names := func(c bctx.Context) ([]string, bool) {
		if t, ok := webhookType(c.Type); ok {
			return h.Config.WebhookSnapshotNames(t, c.Binding)
		}
		return h.Config.SnapshotNames(c.Binding, c.Type == bctx.Schedule)
	}
	return bctx.Refill(contexts, names, current), true
}

// webhookType is the binding type of a webhook run's context type.
func webhookType(t bctx.Type) (bindings.Type, bool) {
	switch t {
	case bctx.Validating:
		return bindings.Validating, true
	case bctx.Mutating:
		return bindings.Mutating, true
	case bctx.Conversion:
		return bindings.Conversion, true
	}
	return "", false
}

// Request builds a hook run with the given binding context and input.
func Request(h Hook, bindingContext []byte, in values.HookInput, scope hookexec.PatchScope, log *slog.Logger) (hookexec.Request, error) {
	vals, err := json.Marshal(in.Values)
	if err != nil {
		return hookexec.Request{}, fmt.Errorf("encode values for hook %s: %w", h.Name, err)
	}
	cfg, err := json.Marshal(in.ConfigValues)
	if err != nil {
		return hookexec.Request{}, fmt.Errorf("encode config values for hook %s: %w", h.Name, err)
	}
	return hookexec.Request{Hook: h.Hook, BindingContext: bindingContext, Values: vals,
		ConfigValues: cfg, Scope: scope, Logger: log}, nil
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
