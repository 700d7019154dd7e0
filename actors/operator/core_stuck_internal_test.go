package operator

import (
	"reflect"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// A release helm left stuck that no module is named after is reported at
// WARN at discovery and nothing is queued for it; a module's stuck release
// is its module's to recover (its run is queued as any other).
func TestCoreReportsForeignStuckReleases(t *testing.T) {
	c := NewCore(CoreOptions{Modules: []layout.Definition{enabledDef(t, "001-a", true)}})
	env := Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.Step(assigned(discoverTask), env)
	c.Step(EnabledAnswered{Msg: messages.EnabledChecked{Module: "a", Enabled: true}}, env)
	out := c.Step(ReleasesListed{Owned: []string{"a"}, All: []string{"a", "other", "theirs"}, Stuck: map[string]string{
		"a": "revision 2 left pending-upgrade", "theirs": "revision 1 left uninstalling", "other": "revision 3 left pending-rollback"}}, env)
	var reported [][]any
	var finished []string
	for _, e := range out {
		switch e := e.(type) {
		case Log:
			if e.Msg == StuckForeignMessage {
				reported = append(reported, e.Args)
			}
		case FinishTask:
			finished = append(finished, describe(e))
		}
	}
	want := [][]any{{"release", "other", "found", "revision 3 left pending-rollback"},
		{"release", "theirs", "found", "revision 1 left uninstalling"}}
	if !reflect.DeepEqual(reported, want) {
		t.Fatalf("reported %v, want %v", reported, want)
	}
	if wantFinish := []string{"Finish ModuleRun a, " + afterConverge}; !reflect.DeepEqual(finished, wantFinish) {
		t.Fatalf("finished %v, want %v", finished, wantFinish)
	}
}
