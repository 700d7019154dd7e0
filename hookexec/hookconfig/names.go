package hookconfig

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// checkNames enforces that explicit binding names are unique across the
// hook's schedule and kubernetes bindings (defaulted names such as "schedule"
// may repeat, as in spec/HOOKS.md), and that includeSnapshotsFrom, of
// these and of the webhook bindings, names kubernetes bindings of the same
// hook. (Webhook names are not checked against them, as in shell-operator:
// contexts tell a webhook binding by its type.)
func checkNames(cfg *bindings.Config) error {
	seen := map[string]string{}
	kube := map[string]bool{}
	for i, k := range cfg.Kubernetes {
		kube[k.Name] = true
		field := fmt.Sprintf("%s[%d].name", kubeKey(cfg.Version), i)
		if err := claimName(seen, k.Name, defaultKubeName(cfg.Version), field); err != nil {
			return err
		}
	}
	for i, s := range cfg.Schedules {
		field := fmt.Sprintf("schedule[%d].name", i)
		if err := claimName(seen, s.Name, string(bindings.Schedule), field); err != nil {
			return err
		}
	}
	for i, k := range cfg.Kubernetes {
		field := fmt.Sprintf("%s[%d].includeSnapshotsFrom", kubeKey(cfg.Version), i)
		if err := checkSnapshotRefs(field, k.IncludeSnapshotsFrom, kube); err != nil {
			return err
		}
	}
	for i, s := range cfg.Schedules {
		field := fmt.Sprintf("schedule[%d].includeSnapshotsFrom", i)
		if err := checkSnapshotRefs(field, s.IncludeSnapshotsFrom, kube); err != nil {
			return err
		}
	}
	return checkWebhookSnapshotRefs(cfg, kube)
}

func checkWebhookSnapshotRefs(cfg *bindings.Config, kube map[string]bool) error {
	for _, list := range []struct {
		t     bindings.Type
		items []bindings.AdmissionBinding
	}{{bindings.Validating, cfg.Validating}, {bindings.Mutating, cfg.Mutating}} {
		for i, b := range list.items {
			field := fmt.Sprintf("%s[%d].includeSnapshotsFrom", list.t, i)
			if err := checkSnapshotRefs(field, b.IncludeSnapshotsFrom, kube); err != nil {
				return err
			}
		}
	}
	for i, b := range cfg.Conversion {
		field := fmt.Sprintf("%s[%d].includeSnapshotsFrom", bindings.Conversion, i)
		if err := checkSnapshotRefs(field, b.IncludeSnapshotsFrom, kube); err != nil {
			return err
		}
	}
	return nil
}

func claimName(seen map[string]string, name, defaultName, field string) error {
	if name == defaultName {
		return nil
	}
	if first, dup := seen[name]; dup {
		return fieldErr(field, ErrDuplicateName, "%q is already the name of %s", name, first)
	}
	seen[name] = field
	return nil
}

func checkSnapshotRefs(field string, refs []string, kube map[string]bool) error {
	for j, ref := range refs {
		if !kube[ref] {
			return fieldErr(fmt.Sprintf("%s[%d]", field, j), ErrBadName, "%q is not the name of a kubernetes binding of this hook", ref)
		}
	}
	return nil
}

func kubeKey(v bindings.Version) string {
	if v == bindings.V0 {
		return string(bindings.OnKubernetesEvent)
	}
	return string(bindings.Kubernetes)
}

func defaultKubeName(v bindings.Version) string { return kubeKey(v) }
