package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/mask"
)

// secretValues are the watched Secrets as the layering reads them
// (moduleconfig.SecretValues).
type secretValues map[string]*secretWatch

// SecretValue implements moduleconfig.SecretValues; the errors name the
// Secret and the key, never a value.
func (s secretValues) SecretValue(ref moduleconfig.SecretKeyRef) (string, error) {
	w, ok := s[ref.Name]
	switch {
	case !ok || !w.read:
		return "", fmt.Errorf("%w: not read yet", moduleconfig.ErrSecretUnknown)
	case !w.exists:
		return "", fmt.Errorf("%w: no such Secret in the operator's namespace", moduleconfig.ErrSecretMissing)
	}
	v, ok := w.data[ref.Key]
	if !ok {
		return "", fmt.Errorf("%w: the Secret has no key %q", moduleconfig.ErrSecretMissing, ref.Key)
	}
	return string(v), nil
}

// allRead tells whether every watched Secret has had its first report: the
// layering waits for them, as the first configuration waits for the first
// list of ModuleConfigs, lest an object be found not valid for a Secret
// not yet read.
func (s secretValues) allRead() bool {
	for _, w := range s {
		if !w.read {
			return false
		}
	}
	return true
}

// masks are every value of the watched Secrets: masked in the statuses and
// logs the layering writes.
func (s secretValues) masks() mask.Secrets {
	var out mask.Secrets
	for _, w := range s {
		for _, v := range w.data {
			out = append(out, string(v))
		}
	}
	return out.With()
}

// secretNames are the Secrets the objects' spec.settingsFrom name, of the
// objects this operator reads (those targets has).
func secretNames(list []moduleconfig.ModuleConfig, targets map[string]moduleconfig.Target) []string {
	var out []string
	for _, mc := range list {
		if _, ok := targets[mc.Metadata.Name]; !ok {
			continue
		}
		for _, f := range mc.Spec.SettingsFrom {
			out = append(out, f.SecretKeyRef.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// handleSecretReport keeps a Secret's state and lays the objects over the
// ConfigMap again: a changed value flows through the same diff of sections
// as a settings change, and re-runs the module.
func (a *Actor) handleSecretReport(ctx actor.Context, msg secretReport) {
	w, ok := a.objects.secrets[msg.Name]
	if !ok {
		return // no object names it any more
	}
	if w.read && w.exists == msg.Exists && maps.EqualFunc(w.data, msg.Data, slices.Equal) {
		return
	}
	w.read, w.exists, w.data = true, msg.Exists, msg.Data
	if a.objects.cm != nil {
		a.handleSnapshot(ctx, *a.objects.cm)
	}
}

// publishSecretPaths tells the board which paths of each owner's values
// come from Secrets: masked wherever values are shown, as `format:
// password` settings are.
func (a *Actor) publishSecretPaths() {
	b := a.opts.Board
	if b == nil {
		return
	}
	now := map[string]mask.Paths{}
	for name, mc := range a.objects.layers.accepted {
		if paths := moduleconfig.SecretPaths(mc.Spec.SettingsFrom); len(paths) > 0 {
			now[name] = paths
			b.SetConfigSecrets(name, paths)
		}
	}
	for name := range a.objects.secretPaths {
		if _, ok := now[name]; !ok {
			b.SetConfigSecrets(name, nil)
		}
	}
	a.objects.secretPaths = now
}

// maskedStatus is st with every Secret value masked in its messages.
func maskedStatus(st moduleconfig.Status, secrets mask.Secrets) moduleconfig.Status {
	if len(secrets) == 0 {
		return st
	}
	st.Message = secrets.Text(st.Message)
	st.Conditions = slices.Clone(st.Conditions)
	for i := range st.Conditions {
		st.Conditions[i].Message = secrets.Text(st.Conditions[i].Message)
	}
	return st
}
