package hookconfig

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// conversionRaw is one entry of kubernetesCustomResourceConversion.
type conversionRaw struct {
	Name                 string               `json:"name"`
	CRDName              string               `json:"crdName"`
	Conversions          *[]conversionRuleRaw `json:"conversions"`
	IncludeSnapshotsFrom *[]string            `json:"includeSnapshotsFrom"`
	Group                string               `json:"group"`
}

type conversionRuleRaw struct {
	FromVersion string `json:"fromVersion"`
	ToVersion   string `json:"toVersion"`
}

func parseConversion(raw json.RawMessage) ([]bindings.ConversionBinding, error) {
	key := string(bindings.Conversion)
	list, err := parseBindings[bindings.ConversionBinding, conversionRaw](key, raw, decodeStrict)
	if err != nil {
		return nil, err
	}
	return list, atLeastOne(key, len(list))
}

func (r conversionRaw) binding(field string) (bindings.ConversionBinding, error) {
	b := bindings.ConversionBinding{Name: r.Name, CRDName: r.CRDName, Group: r.Group}
	steps := []func() error{
		func() error { return requiredName(field+".name", r.Name) },
		func() error { return crdName(field+".crdName", r.CRDName) },
		func() (err error) { b.Conversions, err = conversionRules(field+".conversions", r.Conversions); return },
		func() (err error) { b.IncludeSnapshotsFrom, err = snapshotRefs(field, r.IncludeSnapshotsFrom); return },
		func() error { return checkQueueName(field+".group", r.Group) },
	}
	return checked(&b, steps...)
}

// crdName wants a CRD's full name (plural.group): a DNS subdomain with a
// dot. It is also the path the conversion webhook is served on.
func crdName(field, name string) error {
	if name == "" {
		return fieldErr(field, ErrBadValue, "crdName is required")
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 || !strings.Contains(name, ".") {
		return fieldErr(field, ErrBadName, "%q is no CustomResourceDefinition name (plural.group, such as crontabs.stable.example.com)", name)
	}
	return nil
}

func conversionRules(field string, list *[]conversionRuleRaw) ([]bindings.ConversionRule, error) {
	if list == nil || len(*list) == 0 {
		return nil, fieldErr(field, ErrBadValue, "conversions is required, with at least one {fromVersion, toVersion}")
	}
	out := make([]bindings.ConversionRule, 0, len(*list))
	for i, r := range *list {
		itemField := fmt.Sprintf("%s[%d]", field, i)
		if err := conversionVersion(itemField+".fromVersion", r.FromVersion); err != nil {
			return nil, err
		}
		if err := conversionVersion(itemField+".toVersion", r.ToVersion); err != nil {
			return nil, err
		}
		out = append(out, bindings.ConversionRule{FromVersion: r.FromVersion, ToVersion: r.ToVersion})
	}
	return out, nil
}

// conversionVersion wants `version` or `group/version`.
func conversionVersion(field, v string) error {
	if v == "" {
		return fieldErr(field, ErrBadValue, "a version is required, such as v1 or stable.example.com/v1")
	}
	if _, err := schema.ParseGroupVersion(v); err != nil {
		return fieldErr(field, ErrBadValue, "%v", err)
	}
	return nil
}
