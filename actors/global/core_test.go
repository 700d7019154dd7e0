package global

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
)

// TestOneTaskPerQueue: queues run concurrently, one task each; a second
// task from a busy queue fails at once; a stopping actor fails them all.
func TestOneTaskPerQueue(t *testing.T) {
	c := newCore(t, globalHooks())
	harness(t, c).Expect(assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	harness(t, c).Expect(assign(2, hookTask("event.sh", "tick", "slow")), "EnsureWorker slow", "slow: RunHook event.sh")
	harness(t, c).Expect(assign(3, hookTask("event.sh", "tick", "slow")), "Reply 3 err=the global actor is still running a task of this queue")
	harness(t, c).Expect(done("slow", ""), "slow: Ran", "Publish", "Reply 2")
	harness(t, c).Expect(done("main", ""), "main: Ran", "Publish", "Reply 1")
	harness(t, c).Expect(Stopping{})
	harness(t, c).Expect(assign(4, hookTask("event.sh", "tick", "")), "Reply 4 err=the operator is stopping")
}

// TestBindingTasksAndReloads: a binding run expands into its hooks by
// ORDER; a values change by afterAll or an event hook queues a reload of
// all modules, by beforeAll or a Synchronization run it does not.
func TestBindingTasksAndReloads(t *testing.T) {
	c := newCore(t, globalHooks())
	harness(t, c).Expect(assign(1, messages.Task{Kind: messages.TaskGlobalBinding, Binding: "afterAll"}),
		"EnsureWorker main", "Reply 1 next=before-all.sh next=after-all.sh")
	patch := `[{"op":"add","path":"/global/n","value":2}]`
	for i, tc := range []struct {
		task messages.Task
		want string
	}{
		{hookTask("before-all.sh", "beforeAll", ""), "Reply 10"},
		{hookTask("after-all.sh", "afterAll", ""), "Reply 11 later=ReloadAllModules"},
		{messages.Task{Kind: messages.TaskGlobalHook, Hook: "event.sh", Binding: "tick", Sync: true, Context: []byte(`[]`)}, "Reply 12"},
	} {
		c := newCore(t, globalHooks())
		harness(t, c).Expect(assign(uint64(10+i), tc.task), "EnsureWorker main", "main: RunHook "+tc.task.Hook)
		harness(t, c).Expect(done("main", patch), "main: Ran", "Publish", tc.want)
	}
	harness(t, c).Expect(assign(3, messages.Task{Kind: messages.TaskGlobalHook, Hook: "nope.sh"}), "EnsureWorker main", `Reply 3 err=no global hook "nope.sh"`)
}

// TestFailedHooks: a failure answers the error, and the queue drops the
// task when it allows failure.
func TestFailedHooks(t *testing.T) {
	c := newCore(t, globalHooks())
	failed := inRun("main", hookrun.HookDone{Err: errors.New("exit status 1")})
	harness(t, c).Expect(assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	harness(t, c).Expect(failed, "main: Ran", "Reply 1 err=hook event.sh: exit status 1")
	allowed := hookTask("event.sh", "tick", "")
	allowed.AllowFailure = true
	harness(t, c).Expect(assign(2, allowed), "EnsureWorker main", "main: RunHook event.sh")
	harness(t, c).Expect(failed, "main: Ran", "Reply 2 err=hook event.sh: exit status 1")
}

// TestGlobalSync: without kubernetes bindings the GlobalSynchronization
// task starts the schedules and ends; with them it waits for the list of
// Synchronization runs and for those of named queues, ends with main's
// runs as its next steps, and the schedules start once those have run. A
// named queue's run that fails with allowFailure counts as finished: the
// wait hears of it before the queue does. Failing bindings fail the task.
// The global hooks answer webhooks once the wait is over, when their
// webhooks are served.
func TestGlobalSync(t *testing.T) {
	c := newCore(t, globalHooks())
	harness(t, c).Expect(assign(1, messages.Task{Kind: messages.TaskGlobalSync}),
		"EnsureWorker main", "StartSchedules 1", "WatchKube sync=false monitors=0", "Reply 1")
	c = serving(t, newCore(t, globalHooks()))
	harness(t, c).Expect(assign(1, messages.Task{Kind: messages.TaskGlobalSync}),
		"EnsureWorker main", "StartSchedules 1", "WatchKube sync=false monitors=0", "WebhooksSynced", "Reply 1")

	c = serving(t, newCore(t, withKubeHook(globalHooks())))
	harness(t, c).Expect(assign(2, messages.Task{Kind: messages.TaskGlobalSync, Activation: messages.ActivationStartup}),
		"EnsureWorker main", "WatchKube sync=true monitors=1")
	queued := harness(t, c).Expect(OwnerEvent{Event: owner.HookEventArrived{Event: messages.HookEvent{Owner: "global", Hook: "event.sh", Binding: "tick",
		Queue: "q", Sync: true}}}, "Enqueue")
	if task := queued[0].(Owned).Effect.(owner.Enqueue).Tasks[0]; !task.Sync || task.Activation != messages.ActivationStartup {
		t.Fatalf("named queue's Synchronization task %+v: want the start-up's activation", task)
	}
	run := messages.SyncRun{Hook: "kube.sh", Binding: "pods", Context: []byte(`[]`), AllowFailure: true}
	harness(t, c).Expect(KubeSynced{Runs: messages.KubeSyncRuns{Runs: []messages.SyncRun{run},
		Waited: []messages.SyncRef{{Hook: "event.sh", Binding: "tick"}}}}, "Log INFO waiting for the Synchronization of bindings in named queues runs=1")
	named := hookTask("event.sh", "tick", "q")
	named.Sync, named.AllowFailure = true, true
	harness(t, c).Expect(assign(3, named), "EnsureWorker q", "q: RunHook event.sh")
	effects := harness(t, c).Expect(inRun("q", hookrun.HookDone{Err: errors.New("exit status 1")}),
		"q: Ran", "Reply 2 next=kube.sh", "Reply 3 err=hook event.sh: exit status 1")
	next := effects[1].(Reply).Done.Next[0]
	if !next.AllowFailure || !next.Sync || next.Kind != messages.TaskGlobalHook {
		t.Fatalf("main's Synchronization task %+v does not carry its binding's allowFailure", next)
	}
	harness(t, c).Expect(assign(4, next), "EnsureWorker main", "main: RunHook kube.sh")
	harness(t, c).Expect(done("main", ""), "main: Ran", "Publish", "Reply 4", "WebhooksSynced", "StartSchedules 1")

	c = newCore(t, withKubeHook(globalHooks()))
	harness(t, c).Expect(assign(5, messages.Task{Kind: messages.TaskGlobalSync}), "EnsureWorker main", "WatchKube sync=true monitors=1")
	harness(t, c).Expect(KubeSynced{Runs: messages.KubeSyncRuns{Err: "pods: forbidden"}}, "Reply 5 err=kubernetes bindings: pods: forbidden")
	harness(t, c).Expect(KubeSynced{Runs: messages.KubeSyncRuns{}}) // the wait is over
}

func withKubeHook(hooks map[string]string) map[string]string {
	hooks["kube.sh"] = `{"configVersion":"v1","kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod"}]}`
	return hooks
}

// TestGlobalConfigEcho: the echo of our own config write (a section equal
// to the config layer) changes nothing.
func TestGlobalConfigEcho(t *testing.T) {
	c := newCore(t, globalHooks())
	harness(t, c).Expect(assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	cfg, err := hookexec.ParsePatch([]byte(`[{"op":"add","path":"/global/n","value":3}]`), hookexec.PatchScope{RootKey: "global"})
	if err != nil {
		t.Fatal(err)
	}
	harness(t, c).Expect(inRun("main", hookrun.HookDone{Result: hookexec.Result{ConfigValuesPatch: cfg}}),
		"main: Ran", "Publish", "main: WriteConfigPatch")
	effects := harness(t, c).Expect(OwnerEvent{Event: owner.SectionChanged{Section: map[string]any{"n": 3}}}, "Publish", "ConfigReply")
	if r := effects[1].(Owned).Effect.(owner.ConfigReply).Reply; r.Changed || r.Err != "" {
		t.Errorf("echo: %+v", r)
	}
	harness(t, c).Expect(inRun("main", hookrun.ConfigWritten{}), "Reply 1 later=ReloadAllModules")
}

// TestGlobalCheckTakesNothing: asked about the global section of a
// ConfigMap change, the core answers for the round asked and takes nothing.
func TestGlobalCheckTakesNothing(t *testing.T) {
	c := newCore(t, globalHooks())
	before := c.own.Scope().Checksum()
	for _, tc := range []struct {
		section any
		reject  bool
	}{{section: map[string]any{"n": 5}}, {section: "not a section", reject: true}} {
		effects := harness(t, c).Expect(OwnerEvent{Event: owner.CheckAsked{Check: messages.CheckConfig{Section: tc.section, Round: 4}}},
			"CheckReply") // the answer alone
		if r := effects[0].(Owned).Effect.(owner.CheckReply).Reply; r.Round != 4 || r.Owner != messages.OwnerGlobal || (r.Err != "") != tc.reject {
			t.Fatalf("%v: answer %+v, want round 4 from global, rejected %t", tc.section, r, tc.reject)
		}
	}
	if c.own.Scope().Checksum() != before {
		t.Fatal("the check changed the global values")
	}
}

// serving is c with a webhook server and a hook with a webhook binding.
func serving(t *testing.T, c *Core) *Core {
	c.serveWebhooks = true
	c.hooks = append(c.hooks, parseHooks(t, map[string]string{"policy": policyHook})...)
	return c
}

const policyHook = `{"configVersion":"v1","kubernetesValidating":[{"name":"v.example.com"}]}`

// TestGlobalConfigRejected: a global section the schema rejects is
// answered with its error, logged, and keeps the previous values.
func TestGlobalConfigRejected(t *testing.T) {
	c := newCore(t, globalHooks())
	before := c.own.Scope().Checksum()
	effects := harness(t, c).Expect(OwnerEvent{Event: owner.SectionChanged{Section: "not a section"}},
		"Log ERROR global config rejected; the previous one stays err="+rejection(t, "not a section"), "ConfigReply")
	if r := effects[1].(Owned).Effect.(owner.ConfigReply).Reply; r.Err == "" || r.Owner != messages.OwnerGlobal {
		t.Fatalf("reply %+v, want global's rejection", r)
	}
	if c.own.Scope().Checksum() != before {
		t.Fatal("a rejected section changed the global values")
	}
}

// rejection is the error the global scope gives section.
func rejection(t *testing.T, section any) string {
	t.Helper()
	_, reply := hookrun.ApplySection(testScope(t), messages.OwnerGlobal, section)
	if reply.Err == "" {
		t.Fatalf("section %v is taken", section)
	}
	return reply.Err
}
