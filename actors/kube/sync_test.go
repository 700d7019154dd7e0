package kube_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// monitorsOf parses one hook's kubernetes bindings on the ConfigMaps of ns.
func monitorsOf(tb testing.TB, ns, hook string, bindingsJSON ...string) []messages.HookMonitor {
	tb.Helper()
	list := ""
	for i, b := range bindingsJSON {
		if i > 0 {
			list += ","
		}
		list += fmt.Sprintf(`{"kind":"ConfigMap","namespace":{"nameSelector":{"matchNames":["%s"]}},%s}`, ns, b)
	}
	cfg, err := hookconfig.Parse([]byte(`{"configVersion":"v1","kubernetes":[`+list+`]}`), bindings.ScopeModule)
	if err != nil {
		tb.Fatal(err)
	}
	var out []messages.HookMonitor
	for _, b := range cfg.Kubernetes {
		out = append(out, messages.HookMonitor{Hook: hook, Version: cfg.Version, Binding: b})
	}
	return out
}

// An owner that runs its Synchronization itself (SyncTo) gets the runs of
// its main queue's bindings in hook, then binding order, one per hook and
// group; a named queue's binding is queued in its queue as one task (it
// merges with nothing), and listed in Waited when the owner waits for
// named queues (WaitNamed) and the binding waits (waitForSynchronization);
// with waitForSynchronization: false nothing waits for it. Each run and
// task carries its binding's allowFailure.
func TestSynchronizationRunsForAnOwnerThatRunsThem(t *testing.T) {
	ns := testKube.Namespace(t)
	kit := actortest.New(t)
	queue, owner := kit.NewProbe(), kit.NewProbe()
	pid := kit.Spawn("kube", kube.New(onCluster(testKube.Config(t), kube.Options{Owner: actortest.EveryOwner(queue.PID), Report: kit.NewProbe().PID})))
	monitors := append(monitorsOf(t, ns, "b", `"name":"b1","allowFailure":true`, `"name":"b-waits","queue":"q"`,
		`"name":"b-free","queue":"q","waitForSynchronization":false,"allowFailure":true`),
		monitorsOf(t, ns, "a", `"name":"a2","group":"g"`, `"name":"a1","group":"g"`, `"name":"a0"`)...)
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: monitors, SyncTo: owner.PID, WaitNamed: true})

	runs := actortest.Expect[messages.KubeSyncRuns](owner, time.Minute)
	var got []string
	for _, r := range runs.Runs {
		got = append(got, r.Hook+"/"+r.Binding)
		if r.AllowFailure != (r.Binding == "b1") {
			t.Fatalf("run %s/%s AllowFailure %t, want the binding's", r.Hook, r.Binding, r.AllowFailure)
		}
	}
	if fmt.Sprint(got) != "[a/a2 a/a0 b/b1]" {
		t.Fatalf("Synchronization runs %v, want [a/a2 a/a0 b/b1] (one for group g)", got)
	}
	if fmt.Sprint(runs.Waited) != "[{b b-waits}]" {
		t.Fatalf("waited %v", runs.Waited)
	}
	queued := map[string]messages.Task{}
	for range 2 {
		task := expectTask(queue, time.Minute).Tasks[0]
		queued[task.Binding] = task
	}
	for _, name := range []string{"b-waits", "b-free"} {
		task := queued[name]
		if task.Queue != "q" || !task.Sync || task.MergeKey != "" || task.Compact || task.AllowFailure != (name == "b-free") {
			t.Fatalf("%s queued as %+v", name, task)
		}
	}
}
