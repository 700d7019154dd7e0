// Package moduleconfig is the ModuleConfig object (moduleconfigs.addon-operator.io,
// one per module and one named "global"): a module's enabled flag,
// settings, settings version and maintenance state as a Kubernetes object
// of its own, in Deckhouse's shape (a Deckhouse manifest works after
// changing its apiVersion), beside the ConfigMap, which keeps working.
//
// It is pure. Parse reads manifests (YAML or JSON) and Check their fields;
// Validate converts an object's settings to the module's latest version
// (package conversion) and checks them with the code the operator reads a
// ConfigMap section with (hookrun.ApplySection), for the admission webhook
// and the read side alike; Export turns today's ConfigMap into
// ModuleConfigs (`addon-operator config export`) and Overlay lays
// ModuleConfigs over ConfigMap data with their precedence (`plan -f`).
// CRD is the CRD's manifest, the same bytes the chart ships
// (deploy/addon-operator/crds/moduleconfigs.yaml).
//
// The running operator does not read ModuleConfigs yet: the config actor's
// layering, the status writer and the webhook come next (docs/MODULECONFIG.md).
package moduleconfig
