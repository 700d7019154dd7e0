package moduleobject_test

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/moduleobject"
)

// A module whose run failed is Retrying: its message says what failed and
// when it runs again, Ready is False and Reconciling True.
func Example() {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	in := moduleobject.Input{Name: "web", Decided: true, Enabled: true, EnabledBy: "ConfigMap",
		Run:   &moduleobject.Run{Kind: "ModuleRun", Started: now, Ended: now.Add(time.Second), Err: "hook a: exit 1"},
		Retry: &moduleobject.Retry{Attempts: 1, NextRetry: now.Add(5 * time.Second), LastError: "hook a: exit 1"}}
	st := moduleobject.Compute(in, moduleobject.Status{}, 1, now)
	fmt.Println(st.Phase, "-", st.Message)
	for _, c := range st.Conditions {
		fmt.Println(c.Type, c.Status, c.Reason)
	}
	for _, e := range moduleobject.Events(nil, in) {
		fmt.Println(e.Type, e.Reason, e.Note)
	}
	// Output:
	// Retrying - attempt 1 failed: hook a: exit 1; next retry at 12:00:05
	// Reconciling True ProgressingWithRetry
	// Ready False RunFailed
	// Enabled True ConfigMap
	// RequirementsMet True RequirementsMet
	// Drifted False NoDriftDetected
	// Warning RunFailed hook a: exit 1
}
