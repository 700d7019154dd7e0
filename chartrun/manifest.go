package chartrun

import (
	"fmt"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
)

// hookFilter says whether manifestObjects keeps helm's hooks.
type hookFilter bool

const (
	// withHooks reads a release's manifest, which has none.
	withHooks hookFilter = true
	// withoutHooks reads rendered manifests as helm splits them: a
	// document with the hook annotation is a hook, not in the manifest.
	withoutHooks hookFilter = false
)

// manifestObjects lists the objects of a release manifest in its order. A
// namespaced object without a namespace is in the release's (isAbsent fills
// it in once the kind's scope is known).
func manifestObjects(manifest string, hooks hookFilter) ([]Object, error) {
	docs, err := manifestDocs(manifest, hooks, false)
	if err != nil {
		return nil, err
	}
	objects := make([]Object, len(docs))
	for i, d := range docs {
		objects[i] = d.Object
	}
	return objects, nil
}

// manifestDoc is one object of a manifest, and with bodies its content.
type manifestDoc struct {
	Object
	body map[string]any
}

// manifestDocs splits a manifest into its objects in helm's order, and with
// bodies decodes each whole (numbers as float64, as JSON has them).
func manifestDocs(manifest string, hooks hookFilter, bodies bool) ([]manifestDoc, error) {
	docs := releaseutil.SplitManifests(manifest)
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	sort.Sort(releaseutil.BySplitManifestsOrder(keys))
	out := make([]manifestDoc, 0, len(keys))
	for _, k := range keys {
		head, err := manifestdiff.ReadHead(docs[k])
		if err != nil {
			return nil, fmt.Errorf("read manifest: %s: %w", firstLine(docs[k]), err)
		}
		if !head.Object() || (head.Hook() && hooks == withoutHooks) {
			continue
		}
		d := manifestDoc{Object: Object{APIVersion: head.APIVersion, Kind: head.Kind,
			Namespace: head.Metadata.Namespace, Name: head.Metadata.Name}}
		if bodies {
			if err := yaml.Unmarshal([]byte(docs[k]), &d.body); err != nil {
				return nil, fmt.Errorf("read manifest: %s: %w", firstLine(docs[k]), err)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
