package e2e_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// A change that concerns a module whose run is failing takes effect now
// (DESIGN §4): disabling it deletes it, a fix of its section or of the
// global section runs it at once, and the queue is not held by it.

// failingModules is 010-bad and 020-next, each a chart of one ConfigMap
// named after the release, and 010-peer (no chart, no hooks): with
// ADDON_OPERATOR_PARALLEL_MODULE_RUNS it makes bad's weight a group of two,
// whose runs go through the converge graph (a weight of one runs in main).
// bad's beforeHelm fails while bad.fail is true or global.x is "bad"; every
// hook records into "order".
func failingModules() map[string]string {
	files := map[string]string{"modules/values.yaml": "global:\n  x: ok\nbadEnabled: true\nnextEnabled: true\npeerEnabled: true\n",
		"modules/010-bad/values.yaml": "bad:\n  fail: false\n", "modules/020-next/values.yaml": "next:\n  v: 1\n",
		"modules/010-peer/values.yaml": "peer: {}\n"}
	for _, m := range []string{"010-bad", "020-next"} {
		files["modules/"+m+"/Chart.yaml"] = "apiVersion: v2\nname: " + m[4:] + "\nversion: 0.1.0\n"
		files["modules/"+m+"/templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata: {}\n"
	}
	files["modules/010-bad/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`,
		`record "bad before $(jq -c .bad $VALUES_PATH)" order
if [[ $(jq .bad.fail $VALUES_PATH) == true || $(jq -r .global.x $VALUES_PATH) == bad ]]; then
  echo "bad is told to fail" >&2; exit 1
fi`)
	files["modules/010-bad/hooks/after"] = hook(`{"configVersion":"v1","afterHelm":1}`, `record "bad after" order`)
	files["modules/010-bad/hooks/deleted"] = hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record "bad deleted" order`)
	files["modules/020-next/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`,
		`record "next before $(jq -c .next.v $VALUES_PATH)" order`)
	return files
}

// failing is the operator on failingModules and the ConfigMap it reads.
type failing struct {
	op       *operator
	root, ns string
	cm       map[string]string
}

// startFailing runs the operator on failingModules and waits for the
// first converge, which installs both releases.
func startFailing(t *testing.T, env ...string) *failing {
	t.Helper()
	f := &failing{root: tree(t, failingModules()), ns: kube.Namespace(t), cm: map[string]string{}}
	scenario.PutConfigMap(t, kube, f.ns, f.cm)
	f.op = startSpec(t, f.root, f.ns, env...)
	f.op.waitReady(t)
	releaseDeployed(t, f.ns, "bad")
	releaseDeployed(t, f.ns, "next")
	return f
}

// set changes ConfigMap keys (pairs of key and value) and returns the
// time of the edit.
func (f *failing) set(t *testing.T, kv ...string) time.Time {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		f.cm[kv[i]] = kv[i+1]
	}
	at := time.Now()
	scenario.PutConfigMap(t, kube, f.ns, maps.Clone(f.cm))
	return at
}

// waitOrder waits until "order" holds line n times and returns when it
// was seen: a hook's run ends with log records, at which it is checked.
func (f *failing) waitOrder(t *testing.T, line string, n int) time.Time {
	t.Helper()
	f.op.waitLog(t, 60*time.Second, strconv.Itoa(n)+" lines "+strconv.Quote(line), func([]map[string]any) bool {
		return count(lines(f.root, "order"), line) >= n
	})
	return time.Now()
}

// waitBadFailed waits for the n-th failure of a run of bad and returns
// its record.
func (f *failing) waitBadFailed(t *testing.T, n int) map[string]any {
	t.Helper()
	var rec map[string]any
	f.op.waitLog(t, 60*time.Second, "failure "+strconv.Itoa(n)+" of bad's run", func(recs []map[string]any) bool {
		seen := 0
		for _, r := range recs {
			if task, _ := r["task"].(string); r["msg"] == "task failed; retrying" && strings.HasSuffix(task, ":ModuleRun:bad") {
				if seen++; seen == n {
					rec = r
					return true
				}
			}
		}
		return false
	})
	return rec
}

// queuedTask is a task as `queue list -o json` shows it.
type queuedTask struct {
	Kind, Module, Supersedes, LastError string
	Attempts                            int
	NextRetry                           time.Time
}

// badRun is the run of bad that waits in a queue (its retry).
func (f *failing) badRun(t *testing.T) queuedTask {
	t.Helper()
	var snap struct {
		Queues []struct{ Tasks []queuedTask }
	}
	if err := json.Unmarshal([]byte(f.op.cli(t, "queue", "list", "-o", "json")), &snap); err != nil {
		t.Fatalf("queue list: %v", err)
	}
	for _, q := range snap.Queues {
		for _, task := range q.Tasks {
			if task.Kind == "ModuleRun" && task.Module == "bad" {
				return task
			}
		}
	}
	t.Fatalf("no run of bad queued:\n%s", f.op.cli(t, "queue", "list"))
	return queuedTask{}
}

// failBad makes bad's run fail with the ConfigMap keys kv and waits until
// it waits for its retry, at least minWait away.
func (f *failing) failBad(t *testing.T, minWait time.Duration, kv ...string) queuedTask {
	t.Helper()
	f.set(t, kv...)
	f.waitBadFailed(t, 1)
	run := f.badRun(t)
	if run.Attempts < 1 || !strings.Contains(run.LastError, "bad is told to fail") || time.Until(run.NextRetry) < minWait {
		t.Fatalf("bad's run after its failure: %+v, want a retry at least %s away", run, minWait)
	}
	if why := f.op.cli(t, "module", "why", "bad"); !strings.Contains(why, "retrying in") {
		t.Fatalf("module why bad while it fails:\n%s", why)
	}
	return run
}

// expectWarned fails unless the log has a WARN record msg.
func (f *failing) expectWarned(t *testing.T, msg string) map[string]any {
	t.Helper()
	rec := f.op.waitRecord(t, msg, nil)
	if rec["level"] != "WARN" {
		t.Fatalf("%q logged at %v, want WARN", msg, rec["level"])
	}
	return rec
}

// expectSuperseded checks what a reload that superseded bad's failing run
// left: the WARN record, `module why bad`'s SUPERSEDED line (one line)
// naming the failing run and the reload's reason, and the dropped run counted.
func (f *failing) expectSuperseded(t *testing.T, reason string) {
	t.Helper()
	rec := f.expectWarned(t, "reload supersedes a failing converge; its tasks are dropped")
	if s, _ := rec["supersedes"].(string); rec["reason"] != reason || !strings.Contains(s, "bad") {
		t.Fatalf("supersede record %v, want reason %q naming bad", rec, reason)
	}
	why := f.op.cli(t, "module", "why", "bad")
	t.Logf("module why bad:\n%s", why)
	if !regexp.MustCompile(`SUPERSEDED +\S+:ModuleRun:bad failing \([^\n]*bad is told to fail\) at \S+: ` + regexp.QuoteMeta(reason)).MatchString(why) {
		t.Fatalf("module why bad lacks the SUPERSEDED line:\n%s", why)
	}
	_, metrics := f.op.get(t, "/metrics")
	if !regexp.MustCompile(`(?m)^addon_operator_tasks_dropped_total\{kind="ModuleRun",queue="[^"]+"\} [1-9]`).MatchString(metrics) {
		t.Fatalf("/metrics counts no dropped ModuleRun:\n%s", metrics)
	}
}

// Disabling a module whose run fails and waits for its retry (its own
// section made it fail; the retry is 20 s away) deletes it at once: the reload queued by the
// enabled flag supersedes the failing run, the release is uninstalled,
// afterDeleteHelm runs once and bad's beforeHelm never again, and the
// queue is free: a change of next's section runs next.
func TestFailingModuleDisabled(t *testing.T) {
	supersede{cause: []string{"bad", "fail: true"}, edit: []string{"badEnabled", "false"},
		what: "bad deleted", line: "bad deleted", n: 1, reason: "enabled flags changed in the ConfigMap",
	}.run(t, func(t *testing.T, f *failing) {
		if scenario.ConfigMapData(t, kube, f.ns, "bad") != nil || len(secretVersions(t, f.ns, "bad")) != 0 {
			t.Fatalf("bad's release or its ConfigMap is left: %v", secretVersions(t, f.ns, "bad"))
		}
		f.set(t, "next", "v: 2")
		f.waitOrder(t, "next before 2", 1)
		order := lines(f.root, "order")
		deleted := slices.Index(order, "bad deleted")
		if count(order, "bad deleted") != 1 || slices.ContainsFunc(order[deleted:], func(l string) bool {
			return strings.HasPrefix(l, "bad before")
		}) {
			t.Fatalf("hooks, want one afterDeleteHelm of bad and no beforeHelm of bad after it:\n%s", strings.Join(order, "\n"))
		}
		t.Logf("hooks:\n%s", strings.Join(order, "\n"))
	})
}

// supersede is an edit that supersedes bad's failing run: bad is made to
// fail by the ConfigMap keys cause (its retry 20 s away), then the keys
// edit are set; the n-th "order" line line (what happened) follows within
// 5 s of the edit, and the superseding reload names reason.
type supersede struct {
	cause, edit        []string
	what, line, reason string
	n                  int
}

// run checks s in both run modes, then runs then on the operator.
func (s supersede) run(t *testing.T, then func(t *testing.T, f *failing)) {
	inBothRunModes(t, func(t *testing.T, parallel string) {
		f := startFailing(t, append(retryIn20s, parallel)...)
		f.failBad(t, 15*time.Second, s.cause...)
		edit := f.set(t, s.edit...)
		within(t, s.what, edit, f.waitOrder(t, s.line, s.n), 5*time.Second)
		f.expectSuperseded(t, s.reason)
		then(t, f)
	})
}

// retryIn20s makes the first retry of a failed run wait 20 s: a run that
// succeeds within 5 s of an edit was not its retry.
var retryIn20s = []string{"RETRY_POLICY=exponential", "RETRY_INITIAL_DELAY=20s", "RETRY_MAX_DELAY=60s"}

// within fails unless what happened less than limit after the edit.
func within(t *testing.T, what string, edit, done time.Time, limit time.Duration) {
	t.Helper()
	took := done.Sub(edit)
	t.Logf("%s %s after the edit", what, took.Round(time.Millisecond))
	if took >= limit {
		t.Fatalf("%s %s after the edit, want less than %s", what, took, limit)
	}
}

// A change of a failing module's section replaces its waiting retry by a
// run with the new values that starts at once: a change that still fails
// fails again within 5 s, with the backoff started again (attempt 1) and
// the run saying what it replaced; the fix converges the module within
// 5 s, while the retry was 20 s away.
func TestFailingModuleSectionFixRunsNow(t *testing.T) {
	f := startFailing(t, retryIn20s...)
	f.failBad(t, 15*time.Second, "bad", "fail: true")

	edit := f.set(t, "bad", "fail: true\nround: 2")
	failed := f.waitBadFailed(t, 2)
	within(t, "the replacing run failed", edit, time.Now(), 5*time.Second)
	run := f.badRun(t)
	if failed["attempt"] != 1.0 || run.Attempts != 1 || !strings.HasPrefix(run.Supersedes, "replaces the retry of main:ModuleRun:bad (attempt 1 failed: ") {
		t.Fatalf("the replacing run: attempt %v, queued %+v; want attempt 1 saying what it replaced", failed["attempt"], run)
	}
	rec := f.expectWarned(t, "module run replaces the retry of a failing run and starts now")
	if rec["replaces"] != run.Supersedes || rec["reason"] != "module section of the ConfigMap changed" {
		t.Fatalf("replace record %v", rec)
	}

	edit = f.set(t, "bad", "fail: false")
	within(t, "bad converged", edit, f.waitOrder(t, "bad after", 2), 5*time.Second)
	if order := lines(f.root, "order"); order[len(order)-2] != `bad before {"fail":false}` {
		t.Fatalf("hooks:\n%s", strings.Join(order, "\n"))
	}
}

// A fix of the global section while a module's run in the converge it
// caused fails: the reload supersedes the failing converge (the module's
// run in main, or the converge graph with ADDON_OPERATOR_PARALLEL_MODULE_RUNS)
// and the module converges within 5 s, while its retry was 20 s away.
func TestFailingModuleGlobalFixRunsNow(t *testing.T) {
	supersede{cause: []string{"global", "x: bad"}, edit: []string{"global", "x: good"},
		what: "bad converged", line: "bad after", n: 2, reason: "global section of the ConfigMap changed",
	}.run(t, func(t *testing.T, f *failing) {
		f.waitOrder(t, "next before 1", 2)
	})
}
