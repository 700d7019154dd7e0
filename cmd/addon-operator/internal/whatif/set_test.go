package whatif

import (
	"reflect"
	"strings"
	"testing"
)

func TestApplySets(t *testing.T) {
	tests := []struct {
		name    string
		data    map[string]string
		sets    []string
		want    map[string]string
		wantErr string
	}{
		{name: "data key replaced whole", data: map[string]string{"webEnabled": "true"}, sets: []string{"webEnabled=false"},
			want: map[string]string{"webEnabled": "false"}},
		{name: "field inside a section, number read as YAML", data: map[string]string{"web": "replicas: 1\nimage: x\n"},
			sets: []string{"web.replicas=3"}, want: map[string]string{"web": "image: x\nreplicas: 3\n"}},
		{name: "maps created on the way", data: nil, sets: []string{"global.a.b=hello"},
			want: map[string]string{"global": "a:\n  b: hello\n"}},
		{name: "several edits in order", data: map[string]string{}, sets: []string{"web.x=1", "web.x=2", "dbEnabled=false"},
			want: map[string]string{"web": "x: 2\n", "dbEnabled": "false"}},
		{name: "no equals sign", sets: []string{"web.replicas"}, wantErr: `--set "web.replicas": want key=value`},
		{name: "section not a map", data: map[string]string{"web": "[1, 2]"}, sets: []string{"web.replicas=3"},
			wantErr: `ConfigMap key "web" is not a YAML map`},
		{name: "scalar on the way", data: map[string]string{"web": "a: 1"}, sets: []string{"web.a.b=3"},
			wantErr: "web.a is not a map"},
		{name: "empty part", sets: []string{"web..a=3"}, wantErr: `key "web..a" has an empty part`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ApplySets(tc.data, tc.sets)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestApplySetsLeavesInputAlone(t *testing.T) {
	data := map[string]string{"web": "replicas: 1\n"}
	if _, err := ApplySets(data, []string{"web.replicas=2"}); err != nil {
		t.Fatal(err)
	}
	if data["web"] != "replicas: 1\n" {
		t.Errorf("input changed: %q", data["web"])
	}
}
