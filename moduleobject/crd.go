package moduleobject

import _ "embed"

// The Module object's API.
const (
	Group    = "addon-operator.io"
	Version  = "v1alpha1"
	Kind     = "Module"
	Resource = "modules"
	// CRDName is the CRD's name, Resource.Group.
	CRDName = Resource + "." + Group
	// GlobalName is the object of the global hooks.
	GlobalName = "global"
)

//go:embed crd.yaml
var crdYAML []byte

// CRD is the Module CRD's manifest, as the chart ships it.
func CRD() []byte { return append([]byte(nil), crdYAML...) }
