package hookrun

import (
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
	vals, err := values.MarshalDocument(in.Values)
	if err != nil {
		return hookexec.Request{}, fmt.Errorf("encode values for hook %s: %w", h.Name, err)
	}
	cfg, err := values.MarshalDocument(in.ConfigValues)
	if err != nil {
		return hookexec.Request{}, fmt.Errorf("encode config values for hook %s: %w", h.Name, err)
	}
	return hookexec.Request{Hook: h.Hook, BindingContext: bindingContext, Values: vals,
		ConfigValues: cfg, Scope: scope, Logger: log}, nil
}
