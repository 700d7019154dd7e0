package worker_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
)

func TestOwner(t *testing.T) {
	for _, tc := range []struct {
		root, key, want string
	}{
		{"/hooks", "global", "global"},
		{"/modules/001-some-module/hooks", "someModule", "some-module"},
		{"/modules/plain/hooks", "plain", "plain"},
		{"/modules/Bad_Dir/hooks", "badDir", "badDir"},
	} {
		req := hookexec.Request{Hook: hookexec.Hook{Root: tc.root}, Scope: hookexec.PatchScope{RootKey: tc.key}}
		if got := worker.Owner(req); got != tc.want {
			t.Errorf("Owner(%s, %s) = %q, want %q", tc.root, tc.key, got, tc.want)
		}
	}
}
