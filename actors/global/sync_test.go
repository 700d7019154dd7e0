package global_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

const patience = 10 * time.Second

// syncEnv is a global actor whose siblings are all one probe.
type syncEnv struct {
	kit    *actortest.Kit
	probe  *actortest.Probe
	pid    *actor.PID
	record string
}

func startGlobal(t *testing.T, hooks map[string]string) *syncEnv {
	t.Helper()
	dir := t.TempDir()
	record := filepath.Join(t.TempDir(), "record")
	for name, config := range hooks {
		body := "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '" + config + "'; exit 0; fi\n" +
			"echo \"$(basename $0) $(tr -d '\\n ' < $BINDING_CONTEXT_PATH)\" >> " + record + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	kit, probe, pid := spawnGlobal(t, dir)
	if ready := actortest.Expect[messages.OwnerReady](probe, patience); ready.Err != "" {
		t.Fatal(ready.Err)
	}
	probe.ExpectNoMessage(50 * time.Millisecond) // no schedule, no monitor before TaskGlobalSync
	probe.Send(pid, messages.ApplyConfig{})
	actortest.Expect[messages.ConfigApplied](probe, patience)
	return &syncEnv{kit: kit, probe: probe, pid: pid, record: record}
}

// The global hooks' bindings start with TaskGlobalSync, after onStartup
// (LIFECYCLE-STEPS 1–2): it asks for the Synchronization runs, queues
// those of the main queue as its next steps, and ends only after the
// Synchronization run of a named queue that waits has finished, so that
// beforeAll follows every one of them. That run gets the current
// snapshots its includeSnapshotsFrom names.
func TestGlobalSyncWaitsForNamedQueues(t *testing.T) {
	e := startGlobal(t, map[string]string{
		"a-main":  `{"configVersion":"v1","kubernetes":[{"name":"pods","kind":"Pod"}]}`,
		"b-named": `{"configVersion":"v1","kubernetes":[{"name":"cms","kind":"ConfigMap","queue":"slow","includeSnapshotsFrom":["cms"]}],"schedule":[{"crontab":"* * * * *"}]}`,
	})
	e.probe.Send(e.pid, messages.RunTask{Task: messages.Task{ID: 1, Queue: messages.MainQueue, Kind: messages.TaskGlobalSync, Owner: messages.OwnerGlobal}})
	wk := actortest.Expect[messages.WatchKube](e.probe, patience)
	if len(wk.Monitors) != 2 || !wk.WaitNamed || !wk.SyncTo.Equal(e.pid) {
		t.Fatalf("kubernetes bindings started as %+v", wk)
	}
	mainRun := messages.SyncRun{Hook: "a-main", Binding: "pods", Context: bctx.Marshal([]bctx.Context{bctx.Sync("pods", nil, nil)})}
	e.probe.Send(e.pid, messages.KubeSyncRuns{Owner: messages.OwnerGlobal, Runs: []messages.SyncRun{mainRun},
		Waited: []messages.SyncRef{{Hook: "b-named", Binding: "cms"}}})
	e.probe.ExpectNoMessage(50 * time.Millisecond) // waits for b-named's run

	e.probe.Send(e.pid, messages.RunTask{Task: messages.Task{ID: 2, Queue: "slow", Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal,
		Hook: "b-named", Binding: "cms", Sync: true, Context: bctx.Marshal([]bctx.Context{bctx.Sync("cms", nil, bctx.Snapshots{})})}})
	get := actortest.Expect[messages.GetSnapshots](e.probe, patience)
	cm := bctx.ObjectAndFilterResult{Object: []byte(`{"kind":"ConfigMap"}`)}
	e.kit.Root.RequestWithCustomSender(e.pid, messages.HookSnapshots{Tag: get.Tag, Snapshots: bctx.Snapshots{"cms": {cm}}}, e.probe.PID)
	named := actortest.Expect[messages.TaskDone](e.probe, patience)
	if named.ID != 2 || named.Err != "" || len(named.Later) != 0 {
		t.Fatalf("named queue's Synchronization: %+v (its values changes trigger nothing)", named)
	}
	done := actortest.Expect[messages.TaskDone](e.probe, patience)
	if done.ID != 1 || done.Err != "" || len(done.Next) != 1 {
		t.Fatalf("TaskGlobalSync ended with %+v", done)
	}
	next := done.Next[0]
	if next.Hook != "a-main" || next.Binding != "pods" || !next.Sync || next.Kind != messages.TaskGlobalHook || !reflect.DeepEqual(next.Context, mainRun.Context) {
		t.Fatalf("next step %+v", next)
	}
	e.probe.ExpectNoMessage(50 * time.Millisecond) // no schedule before main's Synchronization has run

	next.ID, next.Queue = 3, messages.MainQueue
	e.probe.Send(e.pid, messages.RunTask{Task: next})
	if done := actortest.Expect[messages.TaskDone](e.probe, patience); done.ID != 3 || done.Err != "" {
		t.Fatalf("main's Synchronization: %+v", done)
	}
	if ws := actortest.Expect[messages.WatchSchedules](e.probe, patience); len(ws.Schedules) != 1 {
		t.Fatalf("schedules started as %+v", ws)
	}
	got, err := os.ReadFile(e.record)
	if err != nil {
		t.Fatal(err)
	}
	want := `b-named [{"binding":"cms","type":"Synchronization","objects":[],"snapshots":{"cms":[{"object":{"kind":"ConfigMap"}}]}}]` + "\n" +
		`a-main [{"binding":"pods","type":"Synchronization","objects":[]}]` + "\n"
	if string(got) != want {
		t.Fatalf("hook saw\n%s\nwant\n%s", got, want)
	}
}

// Without kubernetes bindings the task starts the schedules and ends.
func TestGlobalSyncWithoutKubernetesBindings(t *testing.T) {
	e := startGlobal(t, map[string]string{"s": `{"configVersion":"v1","schedule":[{"crontab":"* * * * *"}]}`})
	e.probe.Send(e.pid, messages.RunTask{Task: messages.Task{ID: 1, Kind: messages.TaskGlobalSync, Owner: messages.OwnerGlobal}})
	actortest.Expect[messages.WatchSchedules](e.probe, patience)
	actortest.Expect[messages.WatchKube](e.probe, patience)
	if done := actortest.Expect[messages.TaskDone](e.probe, patience); done.ID != 1 || done.Err != "" || len(done.Next) != 0 {
		t.Fatalf("TaskGlobalSync ended with %+v", done)
	}
}
