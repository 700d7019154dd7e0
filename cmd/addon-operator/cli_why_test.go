package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
)

// A superseded run's task names its failing run's error, which holds the
// hook's stderr lines: the SUPERSEDED row stays one line.
func TestTextWhySupersededIsOneLine(t *testing.T) {
	why := debugapi.Why{Module: "bad", Superseded: &board.Superseded{
		Task: "main:ModuleRun:bad failing (hook before: exited with code 1; last stderr lines:\nbad is told to fail)",
		By:   "global section of the ConfigMap changed", At: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}}
	out := whyText(t, why)
	want := "main:ModuleRun:bad failing (hook before: exited with code 1; last stderr lines: bad is told to fail) at 03:04:05.000: global section of the ConfigMap changed\n"
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "SUPERSEDED") {
			if !strings.HasSuffix(line+"\n", want) {
				t.Fatalf("SUPERSEDED row %q, want it to end with %q", line, want)
			}
			return
		}
	}
	t.Fatalf("no SUPERSEDED row:\n%s", out.String())
}

// A helm step waiting for its release's workloads lists each object not
// ready under READY WAIT, with how long it has waited.
func TestTextWhyReadyWait(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	why := debugapi.Why{Module: "web", At: at, State: board.ModuleState{Wait: &board.WaitState{Since: at.Add(-40 * time.Second),
		NotReady: []string{"Deployment ns/web: 1/3 available", "Job ns/migrate: 0/1 succeeded"}}}}
	out := whyText(t, why)
	for _, want := range []string{"(40s)\n", "  Deployment ns/web: 1/3 available\n", "  Job ns/migrate: 0/1 succeeded\n"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("module why lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(out.String(), "READY WAIT") {
		t.Fatalf("no READY WAIT section:\n%s", out.String())
	}
}

// whyText is `module why` printing why.
func whyText(t *testing.T, why debugapi.Why) *bytes.Buffer {
	t.Helper()
	return bytes.NewBufferString(printed(t, textWhy, why))
}

// A run the apiserver refused has a forbidden row per refusal, naming the
// verb, the resource, the namespace and the rule to add.
func TestTextWhyForbidden(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	err := `helm upgrade: UPGRADE FAILED: configmaps "web" is forbidden: User "system:serviceaccount:ops:ao" cannot patch resource "configmaps" in API group "" in the namespace "ops"`
	why := debugapi.Why{Module: "web", At: at, State: board.ModuleState{Run: &board.RunRecord{Kind: "ModuleRun", Started: at,
		Ended: at.Add(time.Second), Err: err}}}
	out := whyText(t, why).String()
	want := regexp.MustCompile(`(?m)^  forbidden +patch configmaps in namespace ops; add the rule \{apiGroups: \[""\], resources: \["configmaps"\], verbs: \["patch"\]\} to a Role in namespace ops`)
	if !want.MatchString(out) {
		t.Fatalf("no row %q in:\n%s", want, out)
	}
}
