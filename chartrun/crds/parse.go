package crds

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// GVK is the kind a CRD document must be.
var GVK = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// maxDocument bounds one document, as the original does.
const maxDocument = 2 << 20

// CRD is one document of a crds/ file.
type CRD struct {
	// Source names it in errors: "FILE document N".
	Source string
	Object *unstructured.Unstructured
}

// Name is the CRD's metadata.name.
func (c CRD) Name() string { return c.Object.GetName() }

// ReadFiles reads and parses the files in order.
func ReadFiles(files []string) ([]CRD, error) {
	var out []CRD
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read CRD file: %w", err)
		}
		docs, err := Parse(f, data)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// Parse splits a multi-document YAML file into its CRDs; empty documents
// are skipped. Invalid YAML, or a document that is not an
// apiextensions.k8s.io/v1 CustomResourceDefinition with a name, is an
// error naming the file and the document (counted from 1).
func Parse(file string, data []byte) ([]CRD, error) {
	rd := utilyaml.NewYAMLReader(bufio.NewReaderSize(bytes.NewReader(data), 4096))
	var out []CRD
	for n := 1; ; n++ {
		doc, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("CRD file %s document %d: %w", file, n, err)
		}
		crd, ok, err := parseDoc(doc)
		if err != nil {
			return nil, fmt.Errorf("CRD file %s document %d: %w", file, n, err)
		}
		if ok {
			crd.Source = fmt.Sprintf("%s document %d", file, n)
			out = append(out, crd)
		}
	}
}

// parseDoc parses one document; ok is false for an empty one.
func parseDoc(doc []byte) (CRD, bool, error) {
	if len(doc) > maxDocument {
		return CRD{}, false, fmt.Errorf("document of %d bytes is over the limit of %d", len(doc), maxDocument)
	}
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return CRD{}, false, fmt.Errorf("invalid YAML: %w", err)
	}
	// utiljson keeps whole numbers int64, as objects read from the
	// apiserver have them, so that an unchanged CRD compares equal.
	var obj map[string]any
	if err := utiljson.Unmarshal(js, &obj); err != nil {
		return CRD{}, false, fmt.Errorf("not a YAML mapping: %w", err)
	}
	if len(obj) == 0 {
		return CRD{}, false, nil
	}
	u := &unstructured.Unstructured{Object: obj}
	if gvk := u.GroupVersionKind(); gvk != GVK {
		return CRD{}, false, fmt.Errorf("apiVersion %q kind %q is not an apiextensions.k8s.io/v1 CustomResourceDefinition",
			u.GetAPIVersion(), u.GetKind())
	}
	if u.GetName() == "" {
		return CRD{}, false, errors.New("CustomResourceDefinition has no metadata.name")
	}
	return CRD{Object: u}, true, nil
}
