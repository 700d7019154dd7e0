package moduleconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// ErrInvalid marks a manifest that is not a ModuleConfig the operator can
// read.
var ErrInvalid = errors.New("invalid ModuleConfig")

// Document is one object of a manifest file that is not a ModuleConfig,
// for the caller (plan -f reads a ConfigMap beside ModuleConfigs).
type Document struct {
	// Index numbers the file's objects from 1.
	Index int
	Kind  string
	JSON  json.RawMessage
}

// Manifests are the objects of one file.
type Manifests struct {
	ModuleConfigs []ModuleConfig
	Others        []Document
}

// Parse reads a YAML stream or JSON (a kind List's items too) and checks
// each ModuleConfig (Check). Errors name where (the file), the object's
// place and name, and the field; every bad object is reported.
func Parse(where string, data []byte) (Manifests, error) {
	var out Manifests
	var errs []error
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	index := 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("%s: after object %d: %w: %v", where, index, ErrInvalid, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
			continue
		}
		for _, obj := range items(raw) {
			index++
			if err := out.add(index, obj); err != nil {
				errs = append(errs, fmt.Errorf("%s: object %d: %w", where, index, err))
			}
		}
	}
	return out, errors.Join(errs...)
}

// items are a List's items, or the object itself.
func items(raw json.RawMessage) []json.RawMessage {
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &list) == nil && strings.HasSuffix(list.Kind, "List") {
		return list.Items
	}
	return []json.RawMessage{raw}
}

func (m *Manifests) add(index int, raw json.RawMessage) error {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("%w: not an object: %v", ErrInvalid, err)
	}
	if head.Kind != Kind {
		m.Others = append(m.Others, Document{Index: index, Kind: head.Kind, JSON: raw})
		return nil
	}
	mc, err := Decode(raw)
	if err != nil {
		return err
	}
	m.ModuleConfigs = append(m.ModuleConfigs, mc)
	return nil
}

// Decode reads one ModuleConfig object (JSON) and checks it (Check);
// unknown fields of its spec are errors, as a typo there would be lost.
func Decode(raw json.RawMessage) (ModuleConfig, error) {
	var obj struct {
		ModuleConfig
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return ModuleConfig{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	mc := obj.ModuleConfig
	if len(obj.Spec) > 0 && string(obj.Spec) != "null" {
		dec := json.NewDecoder(bytes.NewReader(obj.Spec))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&mc.Spec); err != nil {
			return mc, fmt.Errorf("ModuleConfig %q: spec: %w: %v", mc.Metadata.Name, ErrInvalid, err)
		}
	}
	return mc, Check(mc)
}

// Check tells whether mc is a ModuleConfig of this operator: its
// apiVersion, a name that is "global" or a module's, a version from 1 up
// (or none), a known maintenance state.
func Check(mc ModuleConfig) error {
	name := mc.Metadata.Name
	at := fmt.Sprintf("ModuleConfig %q", name)
	switch {
	case mc.APIVersion == DeckhouseGroup+"/"+Version:
		return fmt.Errorf("%s: apiVersion: %w: %s is Deckhouse's; change it to %s", at, ErrInvalid, mc.APIVersion, APIVersion)
	case mc.APIVersion != APIVersion:
		return fmt.Errorf("%s: apiVersion: %w: %q, want %s", at, ErrInvalid, mc.APIVersion, APIVersion)
	case name == "":
		return fmt.Errorf("ModuleConfig: metadata.name: %w: missing", ErrInvalid)
	case mc.Spec.Version < 0:
		return fmt.Errorf("%s: spec.version: %w: %d, want 1 or more", at, ErrInvalid, mc.Spec.Version)
	case mc.Spec.Maintenance != "" && mc.Spec.Maintenance != configmap.NoResourceReconciliation:
		return fmt.Errorf("%s: spec.maintenance: %w: %q, want %s or nothing", at, ErrInvalid,
			mc.Spec.Maintenance, configmap.NoResourceReconciliation)
	}
	if err := checkSettingsFrom(at, mc.Spec.SettingsFrom); err != nil {
		return err
	}
	if name == GlobalName {
		return nil
	}
	if _, err := values.NamesOf(name); err != nil {
		return fmt.Errorf("%s: metadata.name: %w: want \"global\" or a module's name: %v", at, ErrInvalid, err)
	}
	return nil
}
