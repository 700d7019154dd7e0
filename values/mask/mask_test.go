package mask_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values/mask"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

func TestBytes(t *testing.T) {
	// sha256("secret") = 2bb80d53...
	if got, want := mask.String("secret"), "(6 bytes, sha256:2bb80d53)"; got != want {
		t.Fatalf("String(secret) = %q, want %q", got, want)
	}
	if mask.String("a") == mask.String("b") {
		t.Fatal("two values gave one mask")
	}
	if got, want := mask.Base64("c2VjcmV0"), mask.String("secret"); got != want {
		t.Fatalf("Base64 = %q, want the mask of the decoded bytes %q", got, want)
	}
	if got, want := mask.Base64("not base64!"), mask.String("not base64!"); got != want {
		t.Fatalf("Base64 of a non-base64 value = %q, want %q", got, want)
	}
	if got, want := mask.Value(map[string]any{"a": 1.0}), mask.String(`{"a":1}`); got != want {
		t.Fatalf("Value of a map = %q, want the mask of its JSON %q", got, want)
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPathsDocument(t *testing.T) {
	m := mask.String
	cases := []struct {
		name  string
		paths mask.Paths
		doc   string
		want  string
	}{
		{"top level", mask.Paths{{"password"}}, `{"password":"hunter2","user":"bob"}`,
			`{"password":"` + m("hunter2") + `","user":"bob"}`},
		{"nested", mask.Paths{{"db", "password"}}, `{"db":{"password":"p","host":"h"}}`,
			`{"db":{"host":"h","password":"` + m("p") + `"}}`},
		{"list items", mask.Paths{{"users", mask.Any, "password"}}, `{"users":[{"password":"a"},{"password":"b","name":"n"}]}`,
			`{"users":[{"password":"` + m("a") + `"},{"name":"n","password":"` + m("b") + `"}]}`},
		{"additional properties", mask.Paths{{"tokens", mask.Any}}, `{"tokens":{"x":"t1","y":"t2"}}`,
			`{"tokens":{"x":"` + m("t1") + `","y":"` + m("t2") + `"}}`},
		{"absent", mask.Paths{{"password"}}, `{"user":"bob"}`, `{"user":"bob"}`},
		{"non-string", mask.Paths{{"key"}}, `{"key":{"a":1}}`, `{"key":"` + m(`{"a":1}`) + `"}`},
		{"no paths", nil, `{"password":"p"}`, `{"password":"p"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := decode(t, c.doc)
			before := valuestest.Marshal(t, doc)
			if got := valuestest.Marshal(t, c.paths.Document(doc)); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
			if valuestest.Marshal(t, doc) != before {
				t.Fatal("the input was changed")
			}
		})
	}
}

func TestPathsAt(t *testing.T) {
	paths := mask.Paths{{"db", "password"}}
	got := valuestest.Marshal(t, paths.At([]string{"db"}, decode(t, `{"password":"p"}`)))
	if want := `{"password":"` + mask.String("p") + `"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := paths.At([]string{"db", "password"}, "p"); got != mask.String("p") {
		t.Fatalf("a value at a path: %v", got)
	}
}

func TestPathsSecrets(t *testing.T) {
	paths := mask.Paths{{"db", "password"}, {"users", mask.Any, "token"}}
	got := paths.Secrets(decode(t, `{"db":{"password":"short"},"users":[{"token":"long-token"},{"token":""}],"x":"y"}`))
	if want := []string{"long-token", "short"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Secrets = %q, want %q", got, want)
	}
}

func TestSecretsText(t *testing.T) {
	s := mask.Secrets{"abc", "s3cr3t-pass"}.With()
	cases := map[string]string{
		"abc":                              mask.String("abc"),
		"xabcx":                            "xabcx", // too short to look for inside
		"postgres://u:s3cr3t-pass@db:5432": "postgres://u:" + mask.String("s3cr3t-pass") + "@db:5432",
		"nothing here":                     "nothing here",
	}
	for in, want := range cases {
		if got := s.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestObjectSecret(t *testing.T) {
	secret := decode(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
		"data":{"a":"c2VjcmV0"},"stringData":{"b":"secret"},"type":"Opaque"}`).(map[string]any)
	got := mask.Object(secret, mask.Manifest, nil)
	data := got["data"].(map[string]any)
	stringData := got["stringData"].(map[string]any)
	if data["a"] != mask.String("secret") || stringData["b"] != mask.String("secret") {
		t.Fatalf("data and stringData of one value should mask alike: %v", got)
	}
	if got["type"] != "Opaque" || got["metadata"].(map[string]any)["name"] != "s" {
		t.Fatalf("other fields changed: %v", got)
	}
	other := decode(t, `{"apiVersion":"example.com/v1","kind":"Secret","data":{"a":"x"}}`).(map[string]any)
	if mask.Object(other, mask.Manifest, nil)["data"].(map[string]any)["a"] != "x" {
		t.Fatal("a Secret of another API group is another kind")
	}
}

func TestObjectByValue(t *testing.T) {
	cm := decode(t, `{"apiVersion":"v1","kind":"ConfigMap","data":{"DB_PASSWORD":"pw-marker-1","URL":"x://pw-marker-1@h","MODE":"fast"}}`).(map[string]any)
	got := valuestest.Marshal(t, mask.Object(cm, mask.Manifest, mask.Secrets{"pw-marker-1"}))
	if strings.Contains(got, "pw-marker-1") || !strings.Contains(got, "fast") {
		t.Fatalf("got %s", got)
	}
}

func TestDriftRule(t *testing.T) {
	cases := []struct {
		kind string
		at   string
		want bool
	}{
		{"Secret", "data.a", true},
		{"Secret", "stringData.a", true},
		{"Secret", "metadata.name", false},
		{"ConfigMap", "data.DB_PASSWORD", true},
		{"ConfigMap", "binaryData.k", true},
		{"ConfigMap", "metadata.labels.a", false},
		{"Deployment", "spec.template.spec.containers.0.env.1.value", true},
		{"Deployment", "spec.template.spec.containers.0.env.1.name", false},
		{"Deployment", "spec.template.spec.containers.0.image", false},
		{"CronJob", "spec.jobTemplate.spec.template.spec.initContainers.0.env.0.value", true},
	}
	for _, c := range cases {
		if got := mask.Drift(c.kind, strings.Split(c.at, ".")); got != c.want {
			t.Errorf("Drift(%s, %s) = %t, want %t", c.kind, c.at, got, c.want)
		}
	}
	if mask.Manifest("ConfigMap", []string{"data", "a"}) {
		t.Error("Manifest masks ConfigMap data")
	}
}

func TestFieldComposite(t *testing.T) {
	env := decode(t, `[{"name":"TOKEN","value":"tok-123456"}]`)
	got := valuestest.Marshal(t, mask.Field("Deployment", []string{"spec", "template", "spec", "containers", "0", "env"}, env, mask.Drift, nil))
	if strings.Contains(got, "tok-123456") || !strings.Contains(got, "TOKEN") {
		t.Fatalf("got %s", got)
	}
}
