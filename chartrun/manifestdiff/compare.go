package manifestdiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values/mask"
)

// Action is what would happen to one object.
type Action string

const (
	Added   Action = "added"
	Removed Action = "removed"
	Changed Action = "changed"
)

// Change is one object that differs between two manifests.
type Change struct {
	// Object is "Kind/name" or "Kind/namespace/name".
	Object string `json:"object"`
	Action Action `json:"action"`
	// Diff is the unified diff of the object's YAML (keys sorted), from
	// the old manifest to the new; the whole object for added and removed.
	Diff string `json:"diff"`
}

// Compare lists the objects that differ from the manifest before to the
// one after, sorted by object. Documents are compared as data, so key order,
// comments and "# Source:" lines do not count; helm hooks (documents with
// the helm.sh/hook annotation, which a release's manifest leaves out) are
// left out of both. The diffs show no Secret's data and none of secrets
// (see Objects); a changed value shows as two different masks.
func Compare(before, after string, secrets mask.Secrets) ([]Change, error) {
	old, err := Objects(before, secrets)
	if err != nil {
		return nil, fmt.Errorf("old manifest: %w", err)
	}
	next, err := Objects(after, secrets)
	if err != nil {
		return nil, fmt.Errorf("new manifest: %w", err)
	}
	keys := slices.Sorted(maps.Keys(old))
	for k := range next {
		if _, ok := old[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Change
	for _, k := range keys {
		a, inOld := old[k]
		b, inNew := next[k]
		switch {
		case !inOld:
			out = append(out, Change{Object: k, Action: Added, Diff: Unified("", b, "/dev/null", k)})
		case !inNew:
			out = append(out, Change{Object: k, Action: Removed, Diff: Unified(a, "", k, "/dev/null")})
		case a != b:
			out = append(out, Change{Object: k, Action: Changed, Diff: Unified(a, b, k, k)})
		}
	}
	return out, nil
}

// Head is the part of a manifest document that names its object.
type Head struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

// ReadHead reads the head of one document of a manifest.
func ReadHead(doc string) (Head, error) {
	var h Head
	err := yaml.Unmarshal([]byte(doc), &h)
	return h, err
}

// Object is false for a document that names no object (empty, or only a
// comment).
func (h Head) Object() bool { return h.Kind != "" && h.Metadata.Name != "" }

// Hook says whether the object is one of helm's hooks (annotated so,
// whatever the value).
func (h Head) Hook() bool {
	_, hook := h.Metadata.Annotations[release.HookAnnotation]
	return hook
}

// Objects maps each object of a manifest ("Kind/[namespace/]name") to its
// YAML with sorted keys, a Secret's data and stringData values masked (as
// kubectl diff hides them) and each of secrets masked wherever it shows up
// (package mask). Empty documents and helm hooks are left out; a document
// that is not YAML is an error naming its first line.
func Objects(manifest string, secrets mask.Secrets) (map[string]string, error) {
	out := map[string]string{}
	for _, doc := range releaseutil.SplitManifests(manifest) {
		h, err := ReadHead(doc)
		if err != nil {
			return nil, fmt.Errorf("document %q: %w", firstLine(doc), err)
		}
		if !h.Object() || h.Hook() {
			continue
		}
		var data map[string]any
		if err := yaml.Unmarshal([]byte(doc), &data); err != nil {
			return nil, fmt.Errorf("document %q: %w", firstLine(doc), err)
		}
		text, err := yaml.Marshal(mask.Object(data, mask.Manifest, secrets))
		if err != nil {
			return nil, fmt.Errorf("document %q: %w", firstLine(doc), err)
		}
		out[key(h)] = string(text)
	}
	return out, nil
}

func key(h Head) string {
	if h.Metadata.Namespace == "" {
		return h.Kind + "/" + h.Metadata.Name
	}
	return h.Kind + "/" + h.Metadata.Namespace + "/" + h.Metadata.Name
}

func firstLine(s string) string {
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}
