package crds_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/crds"
)

const crdDoc = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: %s
`

func TestParse(t *testing.T) {
	doc := func(name string) string { return strings.Replace(crdDoc, "%s", name, 1) }
	for _, tc := range []struct {
		name, data string
		want       []string // names, or the error's parts
		err        bool
	}{
		{name: "one", data: doc("a.x.io"), want: []string{"a.x.io"}},
		{name: "several, empty and comment-only docs skipped", data: "---\n" + doc("a.x.io") + "---\n# note\n---\n" + doc("b.x.io"),
			want: []string{"a.x.io", "b.x.io"}},
		{name: "empty file", data: "", want: nil},
		{name: "not a CRD", data: doc("a.x.io") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
			err: true, want: []string{"f.yaml document 2", `"v1"`, `"ConfigMap"`}},
		{name: "old apiVersion", data: strings.Replace(doc("a.x.io"), "/v1", "/v1beta1", 1),
			err: true, want: []string{"f.yaml document 1", "apiextensions.k8s.io/v1beta1"}},
		{name: "invalid YAML", data: doc("a.x.io") + "---\nmetadata: [\n", err: true, want: []string{"f.yaml document 2", "invalid YAML"}},
		{name: "a list, not a mapping", data: "- a\n", err: true, want: []string{"f.yaml document 1"}},
		{name: "no name", data: strings.Replace(doc(""), "name: ", "labels: {}", 1), err: true,
			want: []string{"f.yaml document 1", "no metadata.name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := crds.Parse("f.yaml", []byte(tc.data))
			if tc.err {
				if err == nil {
					t.Fatalf("no error, got %d CRDs", len(got))
				}
				for _, part := range tc.want {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("error %q does not name %s", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range got {
				names = append(names, c.Name())
			}
			if strings.Join(names, ",") != strings.Join(tc.want, ",") {
				t.Errorf("names %q, want %q", names, tc.want)
			}
		})
	}
}

func TestParseExtraLabels(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
		err  bool
	}{
		{in: crds.DefaultExtraLabels, want: map[string]string{"heritage": "addon-operator"}},
		{in: "", want: map[string]string{"heritage": "addon-operator"}},
		{in: "a=b, c=d", want: map[string]string{"a": "b", "c": "d", "heritage": "addon-operator"}},
		{in: "heritage=deckhouse", want: map[string]string{"heritage": "deckhouse"}},
		{in: "a", err: true},
	} {
		got, err := crds.ParseExtraLabels(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ParseExtraLabels(%q) error %v, want error %t", tc.in, err, tc.err)
			continue
		}
		if !tc.err && !maps.Equal(got, tc.want) {
			t.Errorf("ParseExtraLabels(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
