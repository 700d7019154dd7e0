package mask

import "strconv"

// Rule says which fields of a Kubernetes object are sensitive: kind is the
// object's ("Secret" only for apiVersion v1), at the field's path (map
// keys, list indices in decimal).
type Rule func(kind string, at []string) bool

// Manifest is the rule for what a chart renders (plan, render): a Secret's
// data and stringData. The chart's other values are the module author's,
// which a reviewer needs to see; settings marked `format: password` are
// masked by value (Secrets) wherever the chart puts them.
func Manifest(kind string, at []string) bool {
	return kind == "Secret" && len(at) == 2 && (at[0] == "data" || at[0] == "stringData")
}

// Drift is the rule for drift reports, whose live side is whatever someone
// wrote into the cluster: Manifest's, plus a ConfigMap's data and
// binaryData and every env[].value (where credentials go by convention).
func Drift(kind string, at []string) bool {
	if Manifest(kind, at) {
		return true
	}
	if kind == "ConfigMap" && len(at) == 2 && (at[0] == "data" || at[0] == "binaryData") {
		return true
	}
	n := len(at)
	return n >= 3 && at[n-1] == "value" && at[n-3] == "env" && isIndex(at[n-2])
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// Kind is obj's kind as the rules read it: "" for a Secret or ConfigMap of
// another apiVersion than v1, which are other kinds of object.
func Kind(obj map[string]any) string {
	kind, _ := obj["kind"].(string)
	if (kind == "Secret" || kind == "ConfigMap") && obj["apiVersion"] != "v1" {
		return ""
	}
	return kind
}

// Object returns a copy of obj (a JSON-decoded Kubernetes object) with the
// fields the rule names masked, and the secrets masked wherever they show
// up.
func Object(obj map[string]any, rule Rule, secrets Secrets) map[string]any {
	out, _ := Field(Kind(obj), nil, obj, rule, secrets).(map[string]any)
	return out
}

// Field returns a copy of v, the value at the path at of an object of kind
// kind, with what the rule names masked (a Secret's data by the bytes it
// encodes) and the secrets masked wherever they show up. A masked value
// becomes its mask, a string.
func Field(kind string, at []string, v any, rule Rule, secrets Secrets) any {
	if rule(kind, at) {
		if kind == "Secret" && len(at) > 0 && at[0] == "data" {
			return Base64(v)
		}
		return Value(v)
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, child := range v {
			out[k] = Field(kind, append(at[:len(at):len(at)], k), child, rule, secrets)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, child := range v {
			out[i] = Field(kind, append(at[:len(at):len(at)], strconv.Itoa(i)), child, rule, secrets)
		}
		return out
	case string:
		return secrets.Text(v)
	}
	return v
}
