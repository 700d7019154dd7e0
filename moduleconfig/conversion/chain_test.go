package conversion_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
)

// The prometheus-like chain: v2 drops .auth.password (and an empty auth),
// v3 renames an updateMode.
var chainFiles = fstest.MapFS{
	"openapi/conversions/v2.yaml": {Data: []byte("version: 2\nconversions:\n  - del(.auth.password) | if .auth == {} then del(.auth) end\n")},
	"openapi/conversions/v3.yaml": {Data: []byte("version: 3\nconversions:\n  - if .vpa.updateMode == \"Auto\" then .vpa.updateMode = \"InPlaceOrRecreate\" end\n" +
		"description:\n  en: Auto is now InPlaceOrRecreate\n")},
	"openapi/conversions/conversions_test.go":  {Data: []byte("package conversions\n")},
	"openapi/conversions/testdata/v9.yaml":     {Data: []byte("version: 9\nconversions: [.]\n")},
	"openapi/conversions/notes.yml":            {Data: []byte("version: 7\nconversions: [.]\n")},
	"openapi/config-values.yaml":               {Data: []byte("type: object\n")},
	"openapi/conversions/testdata/v1-in.yaml":  {Data: []byte("auth: {}\n")},
	"openapi/conversions/testdata/v3-out.yaml": {Data: []byte("{}\n")},
}

func TestConvertChain(t *testing.T) {
	c, err := conversion.Load(chainFiles, conversion.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Latest() != 3 || len(c.Steps()) != 2 {
		t.Fatalf("latest %d, %d steps; want 3 from two files (.yml, testdata/ and .go skipped)", c.Latest(), len(c.Steps()))
	}
	v1 := map[string]any{"auth": map[string]any{"password": "x"}, "vpa": map[string]any{"updateMode": "Auto"}, "replicas": 2}
	tests := []struct {
		name string
		from int
		in   map[string]any
		want map[string]any
		err  string
	}{
		{name: "v1 through v2 and v3", from: 1, in: v1,
			want: map[string]any{"vpa": map[string]any{"updateMode": "InPlaceOrRecreate"}, "replicas": float64(2)}},
		{name: "no version is v1", from: 0, in: map[string]any{"auth": map[string]any{"password": "x", "user": "u"}},
			want: map[string]any{"auth": map[string]any{"user": "u"}}},
		{name: "v2 through v3 only", from: 2, in: map[string]any{"auth": map[string]any{"password": "kept"}, "vpa": map[string]any{"updateMode": "Auto"}},
			want: map[string]any{"auth": map[string]any{"password": "kept"}, "vpa": map[string]any{"updateMode": "InPlaceOrRecreate"}}},
		{name: "latest as it is", from: 3, in: v1, want: v1},
		{name: "nil settings", from: 1, in: nil, want: nil},
		{name: "unknown version", from: 4, in: v1, err: "version 4 is unknown: the latest is 3"},
		{name: "negative version", from: -1, in: v1, err: "version -1 is unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Convert(tc.from, tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, conversion.ErrConversion) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
	if _, ok := v1["auth"].(map[string]any)["password"]; !ok {
		t.Fatal("Convert changed the settings it was given")
	}
}

func TestConvertStepFails(t *testing.T) {
	files := fstest.MapFS{
		"c/v2.yaml": {Data: []byte("version: 2\nconversions:\n  - .a + 1\n")},
		"c/v3.yaml": {Data: []byte("version: 3\nconversions: [\"null\"]\n")},
		"c/v4.yaml": {Data: []byte("version: 4\nconversions: [\"[1]\"]\n")},
	}
	c, err := conversion.Load(files, "c")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		from int
		in   map[string]any
		err  string
	}{
		{from: 1, in: map[string]any{"a": "text"}, err: "from version 1 to 2 (c/v2.yaml)"},
		{from: 3, in: map[string]any{}, err: "from version 3 to 4 (c/v4.yaml): [1]: want an object"},
	}
	for _, tc := range tests {
		if _, err := c.Convert(tc.from, tc.in); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("from %d: err %v, want %q", tc.from, err, tc.err)
		}
	}
	got, err := c.Convert(2, map[string]any{"a": 1})
	if err != nil || got != nil {
		t.Fatalf("a step giving null: %v, %v; want nil settings", got, err)
	}
}

// Bad files are module load errors naming the file, the key and the line.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		err   string
	}{
		{name: "gap", files: map[string]string{"v2.yaml": "version: 2\nconversions: [.]\n", "v4.yaml": "version: 4\nconversions: [.]\n"},
			err: "d/v4.yaml: version: settings conversion: version 4 needs a conversion to version 3 first"},
		{name: "no v2", files: map[string]string{"v3.yaml": "version: 3\nconversions: [.]\n"},
			err: "d/v3.yaml: version: settings conversion: version 3 needs a conversion to version 2 first"},
		{name: "twice", files: map[string]string{"a.yaml": "version: 2\nconversions: [.]\n", "b.yaml": "version: 2\nconversions: [.]\n"},
			err: "version 2 also given by d/a.yaml"},
		{name: "version 1", files: map[string]string{"v1.yaml": "\nversion: 1\nconversions: [.]\n"},
			err: "d/v1.yaml: version: settings conversion: want a whole number from 2 up, got \"1\" (line 2)"},
		{name: "version text", files: map[string]string{"v2.yaml": "version: two\nconversions: [.]\n"},
			err: "d/v2.yaml: version: settings conversion: want a whole number from 2 up, got \"two\" (line 1)"},
		{name: "no version", files: map[string]string{"v2.yaml": "conversions: [.]\n"}, err: "d/v2.yaml: version: settings conversion: missing"},
		{name: "no conversions", files: map[string]string{"v2.yaml": "version: 2\n"}, err: "d/v2.yaml: conversions: settings conversion: want a list of jq programs (line 1)"},
		{name: "bad jq", files: map[string]string{"v2.yaml": "version: 2\nconversions:\n  - del(.a\n"},
			err: "d/v2.yaml: conversions: settings conversion: unexpected EOF (line 3)"},
		{name: "not yaml", files: map[string]string{"v2.yaml": "version: [\n"}, err: "d/v2.yaml: settings conversion: yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, text := range tc.files {
				fsys["d/"+name] = &fstest.MapFile{Data: []byte(text)}
			}
			_, err := conversion.Load(fsys, "d")
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
		})
	}
}

func TestNoConversions(t *testing.T) {
	c, err := conversion.Load(fstest.MapFS{}, conversion.Dir)
	if err != nil || c.Latest() != 1 || !c.Known(1) || c.Known(2) {
		t.Fatalf("no dir: %v, latest %d; want latest 1", err, c.Latest())
	}
	in := map[string]any{"a": 1}
	got, err := c.Convert(0, in)
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("got %v, %v; want the settings as they are", got, err)
	}
}
