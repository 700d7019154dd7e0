package debugapi

import (
	"encoding/json"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// globalValues is /global/values, its password settings masked.
func globalValues(b board.Reader) ModuleValues {
	g, _ := b.OwnerValues(values.GlobalKey)
	g.Snapshot.Values = values.WithEnabledModules(g.Snapshot.Values, b.EnabledModules())
	return maskedValues(g, b.Secrets())
}

// moduleValues is /modules/NAME/values, its password settings masked.
func moduleValues(b board.Reader, name string) (ModuleValues, bool) {
	v, ok := b.OwnerValues(name)
	if !ok {
		return ModuleValues{}, false
	}
	return maskedValues(v, b.Secrets()), true
}

// maskedValues masks what the owner's schemas mark `format: password`, by
// path in its config and values and in the values its patches set, and
// every password value (any owner's) wherever else it shows up: a hook may
// copy one to another key.
func maskedValues(o board.OwnerValues, secrets mask.Secrets) ModuleValues {
	v := ModuleValues{Config: o.Snapshot.Config, Values: o.Snapshot.Values, Patches: o.Patches}
	paths := o.Passwords
	if len(paths)+len(secrets) == 0 {
		return v
	}
	v.Config = secrets.Document(paths.Document(v.Config))
	v.Values = secrets.Document(paths.Document(v.Values))
	v.Patches = maskedPatches(v.Patches, o.Snapshot.Key, paths, secrets)
	return v
}

// maskedPatches masks the value of each operation of a JSON patch whose
// path (under the scope's root key) is, or holds, a password setting.
func maskedPatches(patches json.RawMessage, key string, paths mask.Paths, secrets mask.Secrets) json.RawMessage {
	var ops []map[string]any
	if err := json.Unmarshal(patches, &ops); err != nil {
		return json.RawMessage("[]") // the board publishes valid JSON; never serve what could not be masked
	}
	for _, op := range ops {
		value, has := op["value"]
		pointer, _ := op["path"].(string)
		steps := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
		if !has || len(steps) == 0 || unescape(steps[0]) != key {
			continue
		}
		for i := range steps {
			steps[i] = unescape(steps[i])
		}
		op["value"] = paths.At(steps[1:], value)
	}
	out, err := json.Marshal(secrets.Document(anySlice(ops)))
	if err != nil {
		return json.RawMessage("[]")
	}
	return out
}

func anySlice(ops []map[string]any) []any {
	out := make([]any, len(ops))
	for i, op := range ops {
		out[i] = op
	}
	return out
}

func unescape(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}

// maskedManifest is a rendered chart as /modules/NAME/render serves it: a
// Secret's data and stringData, and every password value, masked.
func maskedManifest(manifest string, secrets mask.Secrets) string {
	docs := strings.Split("\n"+manifest, "\n---")
	for i, doc := range docs {
		var obj map[string]any
		if yaml.Unmarshal([]byte(doc), &obj) != nil || mask.Kind(obj) != "Secret" {
			docs[i] = secrets.Text(doc)
			continue
		}
		text, err := yaml.Marshal(mask.Object(obj, mask.Manifest, secrets))
		if err != nil {
			docs[i] = "\n# (a Secret that could not be masked is left out)\n"
			continue
		}
		docs[i] = "\n" + commentLines(doc) + string(text)
	}
	return strings.TrimPrefix(strings.Join(docs, "\n---"), "\n")
}

// commentLines are the leading "# Source: ..." lines of a document.
func commentLines(doc string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimLeft(doc, "\n"), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
