package crds_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun/crds"
)

// Parse reads a crds/ file; a document that is not a CRD is an error
// naming the file and the document.
func ExampleParse() {
	docs, err := crds.Parse("crds/things.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
---
`))
	fmt.Println(len(docs), docs[0].Name(), docs[0].Source, err)
	_, err = crds.Parse("crds/things.yaml", []byte("apiVersion: v1\nkind: ConfigMap\n"))
	fmt.Println(err)
	// Output:
	// 1 things.example.com crds/things.yaml document 1 <nil>
	// CRD file crds/things.yaml document 1: apiVersion "v1" kind "ConfigMap" is not an apiextensions.k8s.io/v1 CustomResourceDefinition
}
