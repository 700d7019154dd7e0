package moduleconfig

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ModuleConfig is one ModuleConfig object, as users write it.
type ModuleConfig struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Spec       Spec     `json:"spec"`
	Status     Status   `json:"status,omitzero"`
}

// Metadata is what the operator reads of an object's metadata.
type Metadata struct {
	Name       string `json:"name"`
	Generation int64  `json:"generation,omitempty"`
}

// Spec is Deckhouse's ModuleConfig spec.
type Spec struct {
	// Enabled is the module's enabled flag; nil leaves it to the other
	// layers. Ignored for global.
	Enabled *bool `json:"enabled,omitempty"`
	// Version is the settings' schema version; 0 (absent) is version 1.
	Version int `json:"version,omitempty"`
	// Settings are the module's section, without its values key.
	Settings map[string]any `json:"settings,omitempty"`
	// Maintenance is "" or NoResourceReconciliation.
	Maintenance string `json:"maintenance,omitempty"`
	// SettingsFrom sets values of the settings from Secrets of the
	// operator's namespace (settingsfrom.go).
	SettingsFrom []SettingFrom `json:"settingsFrom,omitempty"`
	// UpdatePolicy and Source are Deckhouse's, kept so that its manifests
	// read back as they were written; the operator does not use them.
	UpdatePolicy string `json:"updatePolicy,omitempty"`
	Source       string `json:"source,omitempty"`
}

// Status is what the operator writes: the version in use, conditions and a
// message a person can act on.
type Status struct {
	// Version is the settings' version in use, "" when they are not valid.
	Version    string      `json:"version,omitempty"`
	Message    string      `json:"message,omitempty"`
	Conditions []Condition `json:"conditions,omitempty"`
}

// Condition types of a ModuleConfig.
const (
	// Valid: the settings convert to the latest version and pass the
	// module's config schema.
	ConditionValid = "Valid"
	// Applied: the operator took the object's observedGeneration into the
	// module's values.
	ConditionApplied = "Applied"
)

// Condition is a status condition, in Kubernetes' own shape.
type Condition = metav1.Condition

// IsGlobal tells whether the object holds the global values.
func (mc ModuleConfig) IsGlobal() bool { return mc.Metadata.Name == GlobalName }

// SettingsVersion is the version the settings are written in: 1 when the
// spec gives none.
func (mc ModuleConfig) SettingsVersion() int {
	if mc.Spec.Version == 0 {
		return 1
	}
	return mc.Spec.Version
}
