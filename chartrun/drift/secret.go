package drift

import "encoding/base64"

func isSecret(object map[string]any) bool {
	return object["kind"] == "Secret" && object["apiVersion"] == "v1"
}

// secretData compares a Secret's data, and its stringData as the apiserver folds it into
// data: base64-encoded, under the same key, in place of a data key of the same name.
func (c *comparer) secretData(rendered, live map[string]any) {
	data, has := c.renderedSecretData(rendered)
	if !has {
		return
	}
	secret := &comparer{ignore: c.ignore, kind: c.kind, secret: true}
	liveData, liveHas := live["data"]
	secret.walk(path{}.key("data"), data, liveData, liveHas, 0)
	c.fields = append(c.fields, secret.fields...)
}

// renderedSecretData merges the manifest's stringData into its data, leaving out the keys that
// an ignore path names under stringData.
func (c *comparer) renderedSecretData(rendered map[string]any) (any, bool) {
	data, hasData := rendered["data"]
	stringData, _ := rendered["stringData"].(map[string]any)
	if len(stringData) == 0 {
		return data, hasData
	}
	merged := map[string]any{}
	if dataMap, ok := data.(map[string]any); ok {
		for k, v := range dataMap {
			merged[k] = v
		}
	}
	for k, v := range stringData {
		s, ok := v.(string)
		switch {
		case c.ignored(path{}.key("stringData").key(k)):
			delete(merged, k)
		case ok:
			merged[k] = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
	return merged, true
}
