package hookconfig

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

type kubernetesV1Raw struct {
	Name                         string                `json:"name"`
	APIVersion                   string                `json:"apiVersion"`
	Kind                         string                `json:"kind"`
	ExecuteHookOnEvent           *[]string             `json:"executeHookOnEvent"`
	WatchEvent                   *[]string             `json:"watchEvent"`
	ExecuteHookOnSynchronization *flexBool             `json:"executeHookOnSynchronization"`
	WaitForSynchronization       *flexBool             `json:"waitForSynchronization"`
	KeepFullObjectsInMemory      *flexBool             `json:"keepFullObjectsInMemory"`
	NameSelector                 *nameSelectorRaw      `json:"nameSelector"`
	LabelSelector                *metav1.LabelSelector `json:"labelSelector"`
	FieldSelector                *fieldSelectorRaw     `json:"fieldSelector"`
	Namespace                    *namespaceSelectorV1  `json:"namespace"`
	JqFilter                     string                `json:"jqFilter"`
	IncludeSnapshotsFrom         []string              `json:"includeSnapshotsFrom"`
	AllowFailure                 *flexBool             `json:"allowFailure"`
	Queue                        string                `json:"queue"`
	Group                        string                `json:"group"`
	ResynchronizationPeriod      string                `json:"resynchronizationPeriod"`
	// Mode is read only to refuse it with a clear message: shell-operator's
	// v1 schema does not allow it.
	Mode json.RawMessage `json:"mode"`
}

type namespaceSelectorV1 struct {
	NameSelector  *nameSelectorRaw      `json:"nameSelector"`
	LabelSelector *metav1.LabelSelector `json:"labelSelector"`
}

func parseKubernetesV1(raw json.RawMessage) ([]bindings.KubernetesBinding, error) {
	return parseBindings[bindings.KubernetesBinding, kubernetesV1Raw](string(bindings.Kubernetes), raw, decodeStrict)
}

func (r kubernetesV1Raw) binding(field string) (bindings.KubernetesBinding, error) {
	if r.Kind == "" {
		return bindings.KubernetesBinding{}, fieldErr(field+".kind", ErrBadValue, "kind is required")
	}
	b := bindings.KubernetesBinding{
		Name:                         r.Name,
		APIVersion:                   r.APIVersion,
		Kind:                         r.Kind,
		ExecuteHookOnSynchronization: boolOr(r.ExecuteHookOnSynchronization, true),
		KeepFullObjectsInMemory:      boolOr(r.KeepFullObjectsInMemory, true),
		JqFilter:                     r.JqFilter,
		IncludeSnapshotsFrom:         r.IncludeSnapshotsFrom,
		AllowFailure:                 boolOr(r.AllowFailure, false),
		Group:                        r.Group,
		ResynchronizationPeriod:      r.ResynchronizationPeriod,
	}
	if b.Name == "" {
		b.Name = string(bindings.Kubernetes)
	}
	steps := []func() error{
		func() (err error) { return r.checkMode(field) },
		func() (err error) { return checkBindingName(field+".name", r.Name) },
		func() (err error) { return checkAPIVersion(field+".apiVersion", r.APIVersion) },
		func() (err error) { b.ExecuteHookOnEvent, err = r.events(field); return },
		func() (err error) { b.NameSelector, err = matchNames(field+".nameSelector", r.NameSelector); return },
		func() (err error) { return nameAndFieldSelector(field, r.NameSelector, r.FieldSelector) },
		func() (err error) {
			b.LabelSelector, err = labelSelector(field+".labelSelector", r.LabelSelector)
			return
		},
		func() (err error) {
			b.FieldSelector, err = fieldSelector(field+".fieldSelector", r.FieldSelector)
			return
		},
		func() (err error) { b.Namespace, err = namespaceV1(field+".namespace", r.Namespace); return },
		func() (err error) { b.JqFilter, err = checkJq(field+".jqFilter", r.JqFilter); return },
		func() (err error) { b.Queue, err = queueOr(field+".queue", r.Queue); return },
		func() (err error) { return checkQueueName(field+".group", r.Group) },
	}
	if _, err := checked(&b, steps...); err != nil {
		return bindings.KubernetesBinding{}, err
	}
	// waitForSynchronization: false takes effect only with a queue other
	// than main; the main queue always waits for Synchronization.
	b.WaitForSynchronization = boolOr(r.WaitForSynchronization, true) || b.Queue == bindings.DefaultQueue
	return b, nil
}

// checkAPIVersion refuses an apiVersion that is no group/version; empty is
// found by discovery.
func checkAPIVersion(field, apiVersion string) error {
	if apiVersion == "" {
		return nil
	}
	if _, err := schema.ParseGroupVersion(apiVersion); err != nil {
		return fieldErr(field, ErrBadValue, "%v", err)
	}
	return nil
}

// checkMode refuses `mode`, which shell-operator's v1 schema does not have.
func (r kubernetesV1Raw) checkMode(field string) error {
	if r.Mode == nil {
		return nil
	}
	return fieldErr(field+".mode", ErrUnknownField, "mode is not allowed in configVersion v1; remove it")
}

// events is executeHookOnEvent, else its deprecated alias watchEvent, else
// all events. Both are checked when both are given, as shell-operator's
// schema does; executeHookOnEvent wins.
func (r kubernetesV1Raw) events(field string) ([]bindings.WatchEvent, error) {
	alias, err := watchEvents(field+".watchEvent", r.WatchEvent)
	if err != nil {
		return nil, err
	}
	events, err := watchEvents(field+".executeHookOnEvent", r.ExecuteHookOnEvent)
	if err != nil || r.ExecuteHookOnEvent != nil || r.WatchEvent == nil {
		return events, err
	}
	return alias, nil
}

func watchEvents(field string, events *[]string) ([]bindings.WatchEvent, error) {
	if events == nil {
		return bindings.AllWatchEvents(), nil
	}
	out := make([]bindings.WatchEvent, 0, len(*events))
	for i, e := range *events {
		switch w := bindings.WatchEvent(e); w {
		case bindings.Added, bindings.Modified, bindings.Deleted:
			out = append(out, w)
		default:
			return nil, fieldErr(fmt.Sprintf("%s[%d]", field, i), ErrBadValue, "%q: want Added, Modified or Deleted", e)
		}
	}
	return out, nil
}

func namespaceV1(field string, ns *namespaceSelectorV1) (bindings.NamespaceSelector, error) {
	if ns == nil {
		return bindings.NamespaceSelector{}, nil
	}
	names, err := matchNames(field+".nameSelector", ns.NameSelector)
	if err != nil {
		return bindings.NamespaceSelector{}, err
	}
	sel, err := labelSelector(field+".labelSelector", ns.LabelSelector)
	if err != nil {
		return bindings.NamespaceSelector{}, err
	}
	return bindings.NamespaceSelector{Names: names, LabelSelector: sel}, nil
}
