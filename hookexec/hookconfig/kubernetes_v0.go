package hookconfig

import (
	"encoding/json"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// v0Kinds maps the kinds spec/HOOKS.md lists for onKubernetesEvent
// (lower case) to their Kubernetes kind and apiVersion.
func v0Kinds() map[string][2]string {
	return map[string][2]string{
		"namespace":             {"Namespace", "v1"},
		"cronjob":               {"CronJob", "batch/v1"},
		"daemonset":             {"DaemonSet", "apps/v1"},
		"deployment":            {"Deployment", "apps/v1"},
		"job":                   {"Job", "batch/v1"},
		"pod":                   {"Pod", "v1"},
		"replicaset":            {"ReplicaSet", "apps/v1"},
		"replicationcontroller": {"ReplicationController", "v1"},
		"statefulset":           {"StatefulSet", "apps/v1"},
		"endpoints":             {"Endpoints", "v1"},
		"ingress":               {"Ingress", "networking.k8s.io/v1"},
		"service":               {"Service", "v1"},
		"configmap":             {"ConfigMap", "v1"},
		"secret":                {"Secret", "v1"},
		"persistentvolumeclaim": {"PersistentVolumeClaim", "v1"},
		"storageclass":          {"StorageClass", "storage.k8s.io/v1"},
		"node":                  {"Node", "v1"},
		"serviceaccount":        {"ServiceAccount", "v1"},
	}
}

type kubeEventV0Raw struct {
	Name              string               `json:"name"`
	Kind              string               `json:"kind"`
	Event             json.RawMessage      `json:"event"`
	Selector          *selectorV0          `json:"selector"`
	NamespaceSelector *namespaceSelectorV0 `json:"namespaceSelector"`
	JqFilter          string               `json:"jqFilter"`
	AllowFailure      *flexBool            `json:"allowFailure"`
	DisableDebug      *flexBool            `json:"disableDebug"`
}

// selectorV0 is a label selector as the older form writes it: spec/HOOKS.md
// spells the operator of a match expression `operation`, Kubernetes `operator`.
type selectorV0 struct {
	MatchLabels      map[string]string `json:"matchLabels"`
	MatchExpressions []struct {
		Key       string   `json:"key"`
		Operator  string   `json:"operator"`
		Operation string   `json:"operation"`
		Values    []string `json:"values"`
	} `json:"matchExpressions"`
}

type namespaceSelectorV0 struct {
	MatchNames []string  `json:"matchNames"`
	Any        *flexBool `json:"any"`
}

// parseKubernetesV0 converts onKubernetesEvent entries. The older binding
// context has no Synchronization type and no objects, so the converted
// binding neither runs on synchronization nor waits for it, and keeps no
// full objects.
func parseKubernetesV0(raw json.RawMessage) ([]bindings.KubernetesBinding, error) {
	return parseBindings[bindings.KubernetesBinding, kubeEventV0Raw](string(bindings.OnKubernetesEvent), raw, decodeLoose)
}

func (r kubeEventV0Raw) binding(field string) (bindings.KubernetesBinding, error) {
	kind, ok := v0Kinds()[strings.ToLower(r.Kind)]
	if !ok {
		return bindings.KubernetesBinding{}, fieldErr(field+".kind", ErrBadValue, "%q is not one of the kinds of spec/HOOKS.md (pod, deployment, configmap, ...)", r.Kind)
	}
	b := bindings.KubernetesBinding{
		Name: r.Name, Kind: kind[0], APIVersion: kind[1],
		JqFilter: r.JqFilter, AllowFailure: boolOr(r.AllowFailure, false),
		DisableDebug: boolOr(r.DisableDebug, false), Queue: bindings.DefaultQueue,
	}
	if b.Name == "" {
		b.Name = string(bindings.OnKubernetesEvent)
	}
	var err error
	if err = checkBindingName(field+".name", r.Name); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	if b.ExecuteHookOnEvent, err = eventsV0(field+".event", r.Event); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	if b.LabelSelector, err = labelSelector(field+".selector", r.Selector.labelSelector()); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	if b.Namespace, err = r.NamespaceSelector.namespace(field + ".namespaceSelector"); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	if b.JqFilter, err = checkJq(field+".jqFilter", r.JqFilter); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	return b, nil
}

// eventsV0 maps add/update/delete (a list, or one string) to watch events.
func eventsV0(field string, raw json.RawMessage) ([]bindings.WatchEvent, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return bindings.AllWatchEvents(), nil
	}
	var events []string
	if err := json.Unmarshal(raw, &events); err != nil {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, fieldErr(field, ErrBadValue, "want a list of add, update, delete, got %s", raw)
		}
		events = []string{one}
	}
	out := make([]bindings.WatchEvent, 0, len(events))
	for i, e := range events {
		switch strings.ToLower(e) {
		case "add":
			out = append(out, bindings.Added)
		case "update":
			out = append(out, bindings.Modified)
		case "delete":
			out = append(out, bindings.Deleted)
		default:
			return nil, fieldErr(fmt.Sprintf("%s[%d]", field, i), ErrBadValue, "%q: want add, update or delete", e)
		}
	}
	return out, nil
}

func (s *selectorV0) labelSelector() *metav1.LabelSelector {
	if s == nil {
		return nil
	}
	ls := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		op := e.Operator
		if op == "" {
			op = e.Operation
		}
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: e.Key, Operator: metav1.LabelSelectorOperator(op), Values: e.Values,
		})
	}
	return ls
}

// namespace: `any: true` or no selector is every namespace; else matchNames.
func (n *namespaceSelectorV0) namespace(field string) (bindings.NamespaceSelector, error) {
	if n == nil || boolOr(n.Any, false) {
		return bindings.NamespaceSelector{}, nil
	}
	names, err := matchNames(field, &nameSelectorRaw{MatchNames: n.MatchNames})
	return bindings.NamespaceSelector{Names: names}, err
}
