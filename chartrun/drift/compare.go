package drift

import (
	"sort"
	"strings"

	"github.com/addon-actors/addon-operator/values/mask"
)

// Field is one field that the manifest sets and the live object does not hold.
type Field struct {
	Path     string // display path: spec.template.spec.containers[0].image, metadata.labels["app.kubernetes.io/name"]
	Pointer  string // RFC 6901 JSON pointer of the same field: /spec/template/spec/containers/0/image, /metadata/labels/app.kubernetes.io~1name
	Rendered any    // the manifest's value (JSON-decoded: map[string]any, []any, string, float64/int64, bool, nil)
	Live     any    // the live value; nil when Missing
	Missing  bool   // the live object lacks the field

	// MissingParents counts, when Missing, the enclosing objects that the live object lacks
	// as well: 1 for metadata.labels.team when the live object has no labels at all. Patch
	// adds them as {} before the field.
	MissingParents int
	// Secret marks a field of a Secret's data (or stringData, folded into data). Rendered and
	// Live then hold base64 strings, as data does; Summary shows their masks, never their content.
	Secret bool
	// Kind is the object's kind as package mask's rules read it (Summary masks by it).
	Kind string
}

// Compare returns, sorted by Path, the fields that rendered (the manifest's object, JSON-decoded)
// sets and live (the object as the apiserver returns it, JSON-decoded) does not hold.
// Only fields the manifest sets are compared (defaults and fields the apiserver or controllers add are
// not drift). Skipped: status, apiVersion and kind, metadata fields other than labels and
// annotations, the annotations helm and kubectl write for themselves (meta.helm.sh/*,
// kubectl.kubernetes.io/last-applied-configuration, deployment.kubernetes.io/revision), and the
// paths named by ignore (and by the IgnoreAnnotation of the rendered object, which Compare reads
// itself: both are honoured).
//
// A bad ignore path, in the argument or in the annotation, makes Compare report nothing for the
// object: restoring fields that the chart meant to leave to others would be worse than missing a
// drift. ObjectIgnore and ParseIgnore say what is wrong.
func Compare(rendered, live map[string]any, ignore []string) []Field {
	own, err := ObjectIgnore(rendered)
	if err != nil {
		return nil
	}
	ignored, err := parseIgnorePaths(append(own, ignore...))
	if err != nil {
		return nil
	}
	c := &comparer{ignore: ignored, kind: mask.Kind(rendered)}
	c.object(rendered, live)
	sort.Slice(c.fields, func(i, j int) bool { return c.fields[i].Path < c.fields[j].Path })
	return c.fields
}

// comparer collects the drifted fields of one object.
type comparer struct {
	ignore []path
	kind   string
	secret bool // comparing a Secret's data: base64 values, reported as Secret fields
	fields []Field
}

// object compares the top-level fields of an object.
func (c *comparer) object(rendered, live map[string]any) {
	secret := isSecret(rendered)
	for k, value := range rendered {
		if k == "apiVersion" || k == "kind" || k == "status" || secret && (k == "data" || k == "stringData") {
			continue
		}
		if k == "metadata" {
			value = comparedMetadata(value)
		}
		liveValue, has := live[k]
		c.walk(path{}.key(k), value, liveValue, has, 0)
	}
	if secret {
		c.secretData(rendered, live)
	}
}

// comparedMetadata keeps the parts of a manifest's metadata that are the chart's to set:
// labels, and annotations other than those helm and kubectl write for themselves.
func comparedMetadata(metadata any) any {
	m, ok := metadata.(map[string]any)
	if !ok {
		return nil
	}
	kept := map[string]any{}
	if labels, ok := m["labels"]; ok {
		kept["labels"] = labels
	}
	annotations, ok := m["annotations"].(map[string]any)
	if !ok {
		return kept
	}
	chartAnnotations := map[string]any{}
	for k, v := range annotations {
		if !toolAnnotation(k) {
			chartAnnotations[k] = v
		}
	}
	kept["annotations"] = chartAnnotations
	return kept
}

func toolAnnotation(key string) bool {
	return strings.HasPrefix(key, "meta.helm.sh/") ||
		key == "kubectl.kubernetes.io/last-applied-configuration" ||
		key == "deployment.kubernetes.io/revision"
}

func (c *comparer) ignored(at path) bool {
	for _, prefix := range c.ignore {
		if at.under(prefix) {
			return true
		}
	}
	return false
}

func (c *comparer) report(f Field) {
	f.Secret = c.secret
	f.Kind = c.kind
	c.fields = append(c.fields, f)
}
