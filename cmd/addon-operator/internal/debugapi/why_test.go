package debugapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/messages"
)

// The chain's summary puts first what holds the module now.
func TestAssembleWhySummary(t *testing.T) {
	disabledByScript := &board.EnabledDecision{Module: "m", Script: "false", Reason: "disabled by its enabled script"}
	disabledInCM := &board.EnabledDecision{Module: "m", Reason: "disabled in ConfigMap key mEnabled"}
	enabled := &board.EnabledDecision{Module: "m", Enabled: true, Script: "none", Reason: "enabled by ConfigMap key mEnabled; no enabled script"}
	skipped := &board.HelmRecord{Action: "skipped", Reason: "checksum equal, no object absent", Revision: 1}
	failing := messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "main", Tasks: []messages.Task{
		{Kind: messages.TaskModuleRun, Module: "other", Attempts: 1, LastError: "not this"},
		{Kind: messages.TaskModuleRun, Module: "m", Attempts: 3, LastError: "hook a.sh: exit status 1", NextRetry: at.Add(4200 * time.Millisecond)},
	}}}}
	failingOther := messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "parallel_queue_0", Tasks: []messages.Task{
		{Kind: messages.TaskModuleRun, Module: "other", Attempts: 1, LastError: "hook b.sh:\nexit status 2"}}}}}
	running := messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "main", Tasks: []messages.Task{
		{Kind: messages.TaskModuleRun, Module: "m", Attempts: 2, LastError: "boom", Running: true}}}}}
	cases := []struct {
		name string
		in   debugapi.WhyInput
		want string
	}{
		{"disabled by its script", debugapi.WhyInput{Decision: disabledByScript}, "disabled by enabled script"},
		{"disabled in the ConfigMap", debugapi.WhyInput{Decision: disabledInCM}, "disabled in ConfigMap key mEnabled"},
		{"helm skipped", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{Helm: skipped}},
			"helm skipped: checksum equal, no object absent"},
		{"retrying", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{Helm: skipped}, Queues: failing},
			"retrying in 4s: hook a.sh: exit status 1"},
		{"running", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{Helm: skipped,
			Run: &board.RunRecord{Kind: "ModuleRun", Started: at}}}, "running ModuleRun since 12:00:00"},
		{"retry running", debugapi.WhyInput{Decision: enabled, Queues: running}, "retry 3 running: boom"},
		{"stalled", debugapi.WhyInput{Decision: enabled, Queues: messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "main",
			Tasks: []messages.Task{{Kind: messages.TaskModuleRun, Module: "m", Attempts: 3, LastError: "helm upgrade: boom", Stalled: true}}}}}},
			"stalled after 3 failed runs in a row (a change for the module runs it): helm upgrade: boom"},
		{"helm waits for the workloads", debugapi.WhyInput{Decision: enabled, Queues: running, State: board.ModuleState{
			Wait: &board.WaitState{Since: at.Add(-40 * time.Second), NotReady: []string{"Deployment ns/web: 1/3 available"}}}},
			"waiting for Deployment ns/web: 1/3 available, 40s"},
		{"helm waits for two", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{
			Wait: &board.WaitState{Since: at.Add(-61 * time.Second), NotReady: []string{"Deployment ns/web: 1/3 available", "Job ns/m: 0/1 succeeded"}}}},
			"waiting for Deployment ns/web: 1/3 available (+1 more), 1m1s"},
		{"dir error first", debugapi.WhyInput{Decision: enabled, DirError: "dangling symlink", Queues: failing},
			"dir cannot be seen: dangling symlink"},
		{"failed run, no retry", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{Run: &board.RunRecord{Err: "x", Ended: at}}},
			"last run failed: x"},
		{"maintenance", debugapi.WhyInput{Decision: enabled, State: board.ModuleState{Maintenance: "NoResourceReconciliation", Helm: skipped}},
			"maintenance: NoResourceReconciliation"},
		{"enabled, no helm step", debugapi.WhyInput{Decision: enabled}, "enabled by ConfigMap key mEnabled; no enabled script"},
		{"nothing yet", debugapi.WhyInput{}, "not discovered yet"},
		{"waiting for what it requires", debugapi.WhyInput{Decision: enabled, Queues: failingOther,
			Converge: board.ConvergeState{Waits: map[string][]string{"m": {"other", "third"}}}},
			"waiting for other: hook b.sh: exit status 2; waiting for third"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.State.Name, tc.in.Now = "m", at
			w := debugapi.AssembleWhy(tc.in)
			if w.Summary != tc.want || w.Module != "m" || w.Enabled != tc.in.Decision {
				t.Fatalf("summary %q, want %q (%+v)", w.Summary, tc.want, w)
			}
		})
	}
}

// The retry in the chain is the module's own failed task, with the time
// left until it runs again.
func TestAssembleWhyRetry(t *testing.T) {
	snap := messages.QueueSnapshot{Queues: []messages.QueueState{{Name: "main"}, {Name: "slow", Tasks: []messages.Task{
		{Kind: messages.TaskModuleHook, Module: "m", Hook: "h.sh", Attempts: 2, LastError: "exit status 3", NextRetry: at.Add(7 * time.Second)}}}}}
	w := debugapi.AssembleWhy(debugapi.WhyInput{State: board.ModuleState{Name: "m"}, Queues: snap, Now: at})
	r := w.Retry
	if r == nil || r.Queue != "slow" || r.Kind != "ModuleHookRun" || r.Hook != "h.sh" || r.Attempts != 2 ||
		r.In != 7*time.Second || !r.NextRetry.Equal(at.Add(7*time.Second)) {
		t.Fatalf("retry %+v", r)
	}
}

// /modules/NAME/why serves the chain from the board; an unknown module is
// a 404 naming it; /why lists every module's, a module whose dir has not
// been seen since start-up (no actor) included.
func TestWhyEndpoints(t *testing.T) {
	b := filled()
	b.SetDirErrors(map[string]string{"b": "dangling symlink", "c": "dir cannot be seen since start-up"})
	b.SetEnabledDecisions(map[string]board.EnabledDecision{"a": {Module: "a", Enabled: true, Script: "none", Reason: "enabled by x"}})
	srv := httptest.NewServer(debugapi.NewHandler(debugapi.Options{Board: b}))
	defer srv.Close()
	var why debugapi.Why
	getJSON(t, srv.URL+"/modules/a/why", &why)
	if why.Module != "a" || why.Enabled == nil || why.Enabled.Reason != "enabled by x" || why.State.Revision != 3 {
		t.Fatalf("why a: %+v", why)
	}
	var all []debugapi.Why
	getJSON(t, srv.URL+"/why", &all)
	if len(all) != 3 || all[0].Module != "a" || all[1].Summary != "dir cannot be seen: dangling symlink" ||
		all[2].Module != "c" || all[2].Summary != "dir cannot be seen: dir cannot be seen since start-up" {
		t.Fatalf("/why: %+v", all)
	}
	var mods []board.ModuleState
	getJSON(t, srv.URL+"/modules", &mods)
	if len(mods) != 3 || mods[2].Name != "c" || mods[2].Phase != "unseen" || mods[2].DirError == "" {
		t.Fatalf("/modules: %+v", mods)
	}
	resp, err := http.Get(srv.URL + "/modules/nope/why")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown module: %d", resp.StatusCode)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}
