package module

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// remediationHarness is module "demo" with a chart and no hooks, built
// with the operator's remediation op and the module.yaml's mine.
func remediationHarness(t *testing.T, op, mine layout.Remediation) *harness {
	o := demoOptions(t, true, values.Sections{})
	o.Remediation, o.Release.Remediation = op, mine
	h := harnessOf(t, NewCore(o))
	h.step(Configured{}, "Publish", "Ready")
	return h
}

var helmFailed = HelmFinished{Result: worker.HelmResult{Err: errors.New("upgrade release demo: field is immutable")}}

const helmFailedReply = "Reply err=helm upgrade: upgrade release demo: field is immutable"

// TestFailedHelmStepIsRemediated: with onUpgradeFailure rollback (the
// operator's, or the module.yaml's over the operator's none) a failed
// helm step is followed by Remediate, and the run fails with the helm
// step's error whatever the remediation did (a failed rollback is
// reported, the release left); without it the run fails at once, as
// always; in maintenance mode the release is left as it is.
func TestFailedHelmStepIsRemediated(t *testing.T) {
	rollback := layout.Remediation{OnUpgradeFailure: layout.OnUpgradeRollback}
	none := layout.Remediation{OnUpgradeFailure: layout.OnUpgradeNone}
	for _, tc := range []struct {
		name      string
		op, mine  layout.Remediation
		remediate bool
		done      RemediationDone
		log       string
		remedied  string
	}{
		{name: "no remediation: today's behaviour"},
		{name: "module.yaml none over the operator's rollback", op: rollback, mine: none},
		{name: "rolled back", op: rollback, remediate: true,
			done: RemediationDone{Remedied: worker.Remedied{Action: "rolled-back", Revision: 1}},
			log:  "Log helm step failed; release rolled back", remedied: "rolled back to revision 1"},
		{name: "module.yaml rollback over the operator's none", op: none, mine: rollback, remediate: true,
			done: RemediationDone{Remedied: worker.Remedied{Action: "none", Reason: "nothing was written"}},
			log:  "Log helm step failed; nothing to remediate"},
		{name: "the rollback fails: reported, left", op: rollback, remediate: true,
			done:     RemediationDone{Err: errors.New("roll back release demo to revision 1: boom")},
			log:      "Log remediation of the failed helm step failed; the release is left as it is",
			remedied: "remediation failed, the release is left as it is: roll back release demo to revision 1: boom"},
		{name: "first install uninstalled", op: layout.Remediation{OnInstallFailure: layout.OnInstallUninstall}, remediate: true,
			done: RemediationDone{Remedied: worker.Remedied{Action: "uninstalled"}},
			log:  "Log helm step failed; first install uninstalled", remedied: "uninstalled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := remediationHarness(t, tc.op, tc.mine)
			h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm")
			failed := []string{"Observed helm=false err=true", "TaskFailed", "Publish", helmFailedReply}
			if !tc.remediate {
				h.step(helmFailed, append([]string{"Observed helm=true err=true", "DestructiveDone 0"}, failed...)...)
				return
			}
			effects := h.step(helmFailed, "Observed helm=true err=true", "DestructiveDone 0", "Remediate")
			rem := tc.mine.Over(tc.op)
			if r := effects[2].(Remediate); r != (Remediate{Rollback: rem.Rollback(), Uninstall: rem.Uninstall()}) {
				t.Fatalf("Remediate %+v; want as %+v", r, rem)
			}
			h.step(tc.done, append([]string{tc.log}, failed...)...)
			if st := h.core.State(); st.Remedied != tc.remedied || st.LastError == "" {
				t.Fatalf("state %+v; want remedied %q and the helm step's error", st, tc.remedied)
			}
			h.step(tc.done) // late: the run is over
		})
	}
	h := remediationHarness(t, rollback, layout.Remediation{})
	h.step(SectionChanged{Maintenance: true}, "MaintenanceSet", "Publish", "Publish", `ConfigReply changed=false err=""`)
	h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHelm maintenance")
	h.step(helmFailed, "Observed helm=true err=true", "DestructiveDone 0", "Observed helm=false err=true", "TaskFailed",
		"Publish", helmFailedReply)
}

// TestModuleStallsAfterRetries: with retries 3 the run that fails for the
// third time in a row (the queue's Attempts 2) stalls the module: its
// reply says so, the state shows it and StalledSet counts it; the next run
// of the module (a change took the stalled one's place) runs it again.
func TestModuleStallsAfterRetries(t *testing.T) {
	three := 3
	h := remediationHarness(t, layout.Remediation{Retries: &three}, layout.Remediation{})
	run := newRun()
	for attempt := range 3 {
		run.Attempts = attempt
		want := []string{"Publish", "RunHelm"}
		if attempt == 0 {
			want = []string{"Publish", "Watch on=true sync=false", "RunHelm"}
		}
		h.assign(run, want...)
		end := []string{"Observed helm=true err=true", "DestructiveDone 0", "Observed helm=false err=true", "TaskFailed",
			"Publish", helmFailedReply}
		if attempt == 2 {
			end = append([]string{"Observed helm=true err=true", "DestructiveDone 0", "StalledSet"}, end[2:]...)
		}
		effects := h.step(helmFailed, end...)
		reply := effects[len(effects)-1].(Reply)
		if stalled := attempt == 2; reply.Done.Stalled != stalled || h.core.State().Stalled != stalled {
			t.Fatalf("attempt %d: reply stalled %t, state %t; want %t", attempt, reply.Done.Stalled, h.core.State().Stalled, stalled)
		}
	}
	h.assign(messages.NewModuleRun("demo", "config section changed"), "Publish", "StalledSet", "RunHelm")
	if h.core.State().Stalled {
		t.Fatal("still stalled while its next run runs")
	}
	h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
}

// stalls counts failures of module runs only, and never without a limit.
func TestStalls(t *testing.T) {
	one, zero := 1, 0
	run, hook := newRun(), messages.Task{Kind: messages.TaskModuleHook}
	for _, tc := range []struct {
		rem  layout.Remediation
		t    messages.Task
		want bool
	}{
		{layout.Remediation{}, run, false},
		{layout.Remediation{Retries: &zero}, run, false},
		{layout.Remediation{Retries: &one}, run, true},
		{layout.Remediation{Retries: &one}, hook, false},
	} {
		if got := stalls(tc.rem, tc.t); got != tc.want {
			t.Errorf("stalls(%v, %s) = %t", tc.rem.RetryLimit(), tc.t.Kind, got)
		}
	}
}
