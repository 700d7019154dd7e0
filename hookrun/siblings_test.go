package hookrun_test

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
)

// TestSiblingsResolve: unset peers are the named children of the parent,
// explicit ones stay; without a parent none is made up.
func TestSiblingsResolve(t *testing.T) {
	parent := actor.NewPID("nonhost", "root")
	queue := actor.NewPID("nonhost", "probe")
	got := hookrun.Siblings{Queue: queue}.Resolve(parent)
	for _, tc := range []struct {
		pid  *actor.PID
		want string
	}{
		{got.Report, "root"}, {got.Config, "root/config"}, {got.Queue, "probe"},
		{got.Schedule, "root/schedule"}, {got.Kube, "root/kube"},
	} {
		if tc.pid == nil || tc.pid.Id != tc.want || tc.pid.Address != "nonhost" {
			t.Errorf("PID %v, want nonhost/%s", tc.pid, tc.want)
		}
	}
	if none := (hookrun.Siblings{}).Resolve(nil); none.Config != nil || none.Kube != nil || none.Report != nil {
		t.Errorf("without a parent: %+v", none)
	}
}
