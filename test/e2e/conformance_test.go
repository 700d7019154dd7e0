package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// The scenarios of issue 15: binding contexts and start-up order exactly
// as spec/LIFECYCLE-STEPS.md and spec/UPSTREAM.md §8 give them, through the
// built binary, with bash hooks that record what they saw.

// createConfigMap creates ConfigMap name in ns with labels.
func createConfigMap(t *testing.T, ns, name string, labels map[string]string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	_, err := kube.Client(t).CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// lines reads a record file as lines ("" for a missing file: none yet).
func lines(root, name string) []string {
	data, err := os.ReadFile(filepath.Join(root, "record", name))
	if err != nil || len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// waitFor polls cond (a file a hook writes, /queue) until it holds: hooks
// that block on a gate write no log the test could wait on.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 60s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cmBinding is a v1 kubernetes binding on the ConfigMaps of ns with label
// key=x, keeping only their names (keepFullObjectsInMemory: false).
func cmBinding(name, ns, key, extra string) string {
	return `{"name":"` + name + `","kind":"ConfigMap","namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},` +
		`"labelSelector":{"matchLabels":{"` + key + `":"x"}},"jqFilter":".metadata.name","keepFullObjectsInMemory":false` + extra + `}`
}

// LIFECYCLE-STEPS 1–3: the global onStartup hooks run first, then the
// global bindings start and their Synchronization runs (seeing the values
// onStartup patched), then beforeAll; a named queue's Synchronization
// (waitForSynchronization by default) has finished before beforeAll; no
// global schedule fires before onStartup has run. onStartup's context is
// exactly [{"binding":"onStartup"}] for a hook with kubernetes bindings
// too; its afterAll carries the snapshots of those bindings; a hook
// without any gets "snapshots":{} (as the original).
func TestStartupOrderAndOrderContexts(t *testing.T) {
	ns := kube.Namespace(t)
	createConfigMap(t, ns, "cm-1", map[string]string{"conf": "x"})
	startup := `ctx=$(jq -c . $BINDING_CONTEXT_PATH)
case $(jq -r '.[0].binding' $BINDING_CONTEXT_PATH) in
onStartup) record "$ctx" a-onstartup; sleep 1.5; record startup-done ticks; record startup order
  echo '[{"op":"add","path":"/global/fromStartup","value":"yes"}]' > $VALUES_JSON_PATCH_PATH;;
afterAll) record "$ctx" a-afterall;;
esac`
	root := tree(t, map[string]string{
		"global-hooks/a-startup": hook(`{"configVersion":"v1","onStartup":1,"afterAll":1,"kubernetes":[`+
			cmBinding("cms", ns, "conf", `,"executeHookOnSynchronization":false`)+`]}`, startup),
		"global-hooks/b-sync-main": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("cms", ns, "conf", "")+`]}`,
			`record "sync-main $(jq -r .global.fromStartup $VALUES_PATH)" order; record "$(jq -c . $BINDING_CONTEXT_PATH)" b-sync`),
		"global-hooks/c-sync-named": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("cms", ns, "conf", `,"queue":"named"`)+`]}`,
			`sleep 1; record sync-named order`),
		"global-hooks/d-before-all": hook(`{"configVersion":"v1","beforeAll":1}`,
			`record beforeAll order; record "$(jq -c . $BINDING_CONTEXT_PATH)" d-beforeall`),
		"global-hooks/e-tick": hook(`{"configVersion":"v1","schedule":[{"crontab":"* * * * * *","queue":"ticks"}]}`, `record tick ticks`),
		"modules/values.yaml": "{}\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)

	order := lines(root, "order")
	if len(order) < 4 || order[0] != "startup" || order[len(order)-1] != "beforeAll" {
		t.Fatalf("start-up ran\n%s\nwant startup first, both Synchronization runs, then beforeAll", strings.Join(order, "\n"))
	}
	if got := strings.Join(order[1:3], ","); got != "sync-main yes,sync-named" && got != "sync-named,sync-main yes" {
		t.Fatalf("Synchronization runs %q: each once, after onStartup, seeing its values patch", got)
	}
	if ticks := lines(root, "ticks"); ticks[0] != "startup-done" {
		t.Fatalf("a schedule fired before onStartup ended: %v", ticks)
	}
	scenario.JSONEqual(t, "onStartup context", lines(root, "a-onstartup")[0], `[{"binding":"onStartup"}]`)
	scenario.JSONEqual(t, "Synchronization context", lines(root, "b-sync")[0],
		`[{"binding":"cms","type":"Synchronization","objects":[{"filterResult":"cm-1"}]}]`)
	scenario.JSONEqual(t, "beforeAll context", lines(root, "d-beforeall")[0], `[{"binding":"beforeAll","snapshots":{}}]`)
	scenario.JSONEqual(t, "afterAll context", lines(root, "a-afterall")[0],
		`[{"binding":"afterAll","snapshots":{"cms":[{"filterResult":"cm-1"}]}}]`)
}

// queuedContexts is how many binding contexts the waiting task of queue
// holds (0 when none waits).
func (op *operator) queuedContexts(t *testing.T, queue string) int {
	t.Helper()
	_, body := op.get(t, "/queue?format=json")
	var snap struct {
		Queues []struct {
			Name  string
			Tasks []struct {
				Running  bool
				Contexts int
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &snap); err != nil {
		t.Fatalf("/queue: %v", err)
	}
	for _, q := range snap.Queues {
		for _, task := range q.Tasks {
			if q.Name == queue && !task.Running {
				return task.Contexts
			}
		}
	}
	return 0
}

// Step 9: an Event context carries "the current state of all objects":
// events that waited behind a running hook merge into one run, and every
// context of it carries the snapshots as they are when the hook starts,
// not as they were when the event was queued. keepFullObjectsInMemory:
// false leaves "object" out (UPSTREAM §8.2).
func TestSnapshotsAreReadWhenTheHookStarts(t *testing.T) {
	ns := kube.Namespace(t)
	body := `record "$(jq -c . $BINDING_CONTEXT_PATH)" runs
while [[ ! -f $RECORD_DIR/gate ]]; do record started signal; sleep 0.05; done`
	root := tree(t, map[string]string{
		"global-hooks/watch": hook(`{"configVersion":"v1","kubernetes":[`+
			cmBinding("cms", ns, "five", `,"queue":"q5","includeSnapshotsFrom":["cms"],"executeHookOnSynchronization":false`)+`]}`, body),
		"modules/values.yaml": "{}\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)

	createConfigMap(t, ns, "cm-a", map[string]string{"five": "x"})
	waitFor(t, "first run blocked on its gate", func() bool { return len(lines(root, "signal")) > 0 })
	createConfigMap(t, ns, "cm-b", map[string]string{"five": "x"})
	createConfigMap(t, ns, "cm-c", map[string]string{"five": "x"})
	waitFor(t, "both events merged in the waiting run", func() bool { return op.queuedContexts(t, "q5") == 2 })
	if err := os.WriteFile(filepath.Join(root, "record", "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the merged run", func() bool { return len(lines(root, "runs")) == 2 })

	runs := lines(root, "runs")
	scenario.JSONEqual(t, "first run", runs[0],
		`[{"binding":"cms","type":"Event","watchEvent":"Added","filterResult":"cm-a","snapshots":{"cms":[{"filterResult":"cm-a"}]}}]`)
	all := `"snapshots":{"cms":[{"filterResult":"cm-a"},{"filterResult":"cm-b"},{"filterResult":"cm-c"}]}`
	scenario.JSONEqual(t, "merged run", runs[1], `[
	  {"binding":"cms","type":"Event","watchEvent":"Added","filterResult":"cm-b",`+all+`},
	  {"binding":"cms","type":"Event","watchEvent":"Added","filterResult":"cm-c",`+all+`}]`)
}

// Steps 11–12 and UPSTREAM §8.3–8.4: a schedule's context carries the
// snapshots its includeSnapshotsFrom names; a grouped schedule or
// kubernetes binding gives a Group context with the snapshots of every
// kubernetes binding of the group; a module hook's grouped bindings give
// one Synchronization run with one Group context.
func TestScheduleSnapshotsAndGroups(t *testing.T) {
	ns := kube.Namespace(t)
	createConfigMap(t, ns, "cm-4", map[string]string{"four": "x", "g1": "x"})
	record := `record "$(jq -c . $BINDING_CONTEXT_PATH)" $(basename $0)`
	root := tree(t, map[string]string{
		"global-hooks/s-grp": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("cms", ns, "four", `,"group":"g"`)+`],`+
			`"schedule":[{"name":"grp","crontab":"* * * * * *","group":"g","queue":"s1"}]}`, record),
		"global-hooks/s-inc": hook(`{"configVersion":"v1","kubernetes":[`+cmBinding("cms2", ns, "four", `,"executeHookOnSynchronization":false`)+`],`+
			`"schedule":[{"name":"inc","crontab":"* * * * * *","includeSnapshotsFrom":["cms2"],"queue":"s2"}]}`, record),
		"modules/values.yaml":             "groupedEnabled: true\n",
		"modules/001-grouped/values.yaml": "grouped: {}\n",
		"modules/001-grouped/hooks/paired": hook(`{"configVersion":"v1","beforeHelm":1,"kubernetes":[`+
			cmBinding("first", ns, "g1", `,"group":"pair"`)+`,`+cmBinding("second", ns, "g2", `,"group":"pair"`)+`]}`, record),
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	waitFor(t, "a tick of each schedule", func() bool { return len(lines(root, "s-grp")) > 1 && len(lines(root, "s-inc")) > 0 })

	group := `"snapshots":{"cms":[{"filterResult":"cm-4"}]}`
	scenario.JSONEqual(t, "grouped Synchronization", lines(root, "s-grp")[0], `[{"binding":"cms","type":"Group","groupName":"g",`+group+`}]`)
	var tick []map[string]any
	if err := json.Unmarshal([]byte(lines(root, "s-grp")[1]), &tick); err != nil || len(tick) != 1 {
		t.Fatalf("grouped ticks merged into %s: one Group context stands for them", lines(root, "s-grp")[1])
	}
	scenario.JSONEqual(t, "grouped schedule", lines(root, "s-grp")[1], `[{"binding":"grp","type":"Group","groupName":"g",`+group+`}]`)
	var first []json.RawMessage
	if err := json.Unmarshal([]byte(lines(root, "s-inc")[0]), &first); err != nil {
		t.Fatal(err)
	}
	scenario.JSONEqual(t, "schedule with includeSnapshotsFrom", string(first[0]),
		`{"binding":"inc","type":"Schedule","snapshots":{"cms2":[{"filterResult":"cm-4"}]}}`)

	pair := `"snapshots":{"first":[{"filterResult":"cm-4"}],"second":[]}`
	paired := lines(root, "paired")
	if len(paired) != 2 {
		t.Fatalf("module hook ran %d times, want one Synchronization and beforeHelm:\n%s", len(paired), strings.Join(paired, "\n"))
	}
	scenario.JSONEqual(t, "module's grouped Synchronization", paired[0], `[{"binding":"first","type":"Group","groupName":"pair",`+pair+`}]`)
	scenario.JSONEqual(t, "module's beforeHelm", paired[1], `[{"binding":"beforeHelm",`+pair+`}]`)
}

// LIFECYCLE, "Modules discovery": while discovery fails, schedule and
// Kubernetes-event hooks wait, in every queue; what was held runs once it
// succeeds (nothing lost).
func TestFailingDiscoveryHoldsEventsAndTicks(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"global-hooks/ev": hook(`{"configVersion":"v1","kubernetes":[`+
			cmBinding("cms", ns, "seven", `,"queue":"evq","executeHookOnSynchronization":false`)+`]}`,
			`record "$(jq -c '[.[].filterResult]' $BINDING_CONTEXT_PATH)" events`),
		"global-hooks/tick":         hook(`{"configVersion":"v1","schedule":[{"crontab":"* * * * * *","queue":"tq"}]}`, `record tick ticks`),
		"modules/values.yaml":       "flakyEnabled: true\n",
		"modules/001-flaky/enabled": "#!/usr/bin/env bash\nif [[ -f $RECORD_DIR/fail ]]; then echo failing >&2; exit 1; fi\necho true > $MODULE_ENABLED_RESULT\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if err := os.MkdirAll(filepath.Join(root, "record"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "record", "fail"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	from := op.logLen()
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "reload: 1\n"})
	failure := func(after int) int {
		at := -1
		op.waitLog(t, 60*time.Second, "a failed discovery", func(recs []map[string]any) bool {
			for i := after; i < len(recs); i++ {
				if err, _ := recs[i]["err"].(string); recs[i]["msg"] == "task failed; retrying" && strings.Contains(err, "discover modules") {
					at = i
					return true
				}
			}
			return false
		})
		return at
	}
	first := failure(from)
	ticksHeld := len(lines(root, "ticks"))
	createConfigMap(t, ns, "cm-7", map[string]string{"seven": "x"})
	failure(first + 1) // a retry later: the event had time to run, were it not held
	if got := lines(root, "events"); len(got) != 0 {
		t.Fatalf("an event ran while discovery failed: %v", got)
	}
	if n := len(lines(root, "ticks")); n > ticksHeld+1 { // one tick may have been queued as it failed
		t.Fatalf("%d ticks ran while discovery failed", n-ticksHeld)
	}
	if err := os.Remove(filepath.Join(root, "record", "fail")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the held event's run", func() bool { return len(lines(root, "events")) > 0 })
	if got := lines(root, "events"); got[0] != `["cm-7"]` {
		t.Fatalf("held event ran as %v", got)
	}
	waitFor(t, "held ticks' runs", func() bool { return len(lines(root, "ticks")) > ticksHeld+1 })
}
