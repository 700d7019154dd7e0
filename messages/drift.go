package messages

import "encoding/json"

// DriftedObject is an object of a module's release that does not hold what
// the release's manifest sets, as a drift check found it.
type DriftedObject struct {
	// Object is Kind/namespace/name (Kind/name when cluster scoped).
	Object string `json:"object"`
	Kind   string `json:"kind"`
	// Ref identifies the object for a restore (apiVersion, kind,
	// namespace, name).
	Ref    ObjectRef    `json:"ref"`
	Fields []DriftField `json:"fields"`
}

// ObjectRef names an object of a release.
type ObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// DriftField is one field of a DriftedObject.
type DriftField struct {
	// Path is the field's dotted path: spec.template.spec.containers[0].image.
	Path string `json:"path"`
	// Shown is the manifest's value and the live one as they may be shown
	// (a Secret's values are not): `"a" → "b" (live)`.
	Shown string `json:"shown"`
	// Pointer, Rendered, Live and Missing are what a restore needs: the
	// field's JSON pointer, its two values as JSON, and whether the live
	// object lacks it.
	Pointer  string          `json:"pointer"`
	Rendered json.RawMessage `json:"rendered"`
	Live     json.RawMessage `json:"live,omitempty"`
	Missing  bool            `json:"missing,omitempty"`
	// MissingParents counts the enclosing objects the live object lacks
	// too; Secret marks a Secret's data (values shown by length only).
	MissingParents int  `json:"missingParents,omitempty"`
	Secret         bool `json:"secret,omitempty"`
}
