package moduleconfig

import (
	_ "embed"

	"github.com/addon-actors/addon-operator/moduleobject"
)

// The ModuleConfig object's API: the Module object's group and version.
const (
	Group      = moduleobject.Group
	Version    = moduleobject.Version
	APIVersion = Group + "/" + Version
	Kind       = "ModuleConfig"
	Resource   = "moduleconfigs"
	// CRDName is the CRD's name, Resource.Group.
	CRDName = Resource + "." + Group
	// GlobalName is the object of the global values.
	GlobalName = "global"
	// DeckhouseGroup is the group of Deckhouse's ModuleConfig, whose
	// manifests are refused with a hint to change their apiVersion.
	DeckhouseGroup = "deckhouse.io"
)

//go:embed crd.yaml
var crdYAML []byte

// CRD is the ModuleConfig CRD's manifest, as the chart ships it.
func CRD() []byte { return append([]byte(nil), crdYAML...) }
