package hookconfig

import (
	"slices"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"

	"github.com/itchyny/gojq"
)

type parseCase struct {
	name  string
	scope bindings.Scope
	in    string
	check func(t *testing.T, c *bindings.Config)
}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scope := tc.scope
			if scope == 0 {
				scope = bindings.ScopeModule
			}
			cfg, err := Parse([]byte(tc.in), scope)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			tc.check(t, cfg)
		})
	}
}

func wantEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestParseV1OrderBindings(t *testing.T) {
	orders := func(want map[bindings.Type]float64) func(*testing.T, *bindings.Config) {
		return func(t *testing.T, c *bindings.Config) {
			wantEq(t, "version", c.Version, bindings.V1)
			wantEq(t, "len(orders)", len(c.Orders), len(want))
			for k, v := range want {
				got, ok := c.Order(k)
				if !ok || got != v {
					t.Errorf("Order(%s) = %v,%v, want %v", k, got, ok, v)
				}
			}
		}
	}
	runParseCases(t, []parseCase{
		{"onStartup", bindings.ScopeGlobal, `{"configVersion":"v1","onStartup":10}`, orders(map[bindings.Type]float64{bindings.OnStartup: 10})},
		{"beforeAll", bindings.ScopeGlobal, `{"configVersion":"v1","beforeAll":5}`, orders(map[bindings.Type]float64{bindings.BeforeAll: 5})},
		{"afterAll", bindings.ScopeGlobal, `{"configVersion":"v1","afterAll":0.5}`, orders(map[bindings.Type]float64{bindings.AfterAll: 0.5})},
		{"beforeHelm", bindings.ScopeModule, `{"configVersion":"v1","beforeHelm":1}`, orders(map[bindings.Type]float64{bindings.BeforeHelm: 1})},
		{"afterHelm", bindings.ScopeModule, `{"configVersion":"v1","afterHelm":2}`, orders(map[bindings.Type]float64{bindings.AfterHelm: 2})},
		{"beforeDeleteHelm", bindings.ScopeModule, `{"configVersion":"v1","beforeDeleteHelm":4}`, orders(map[bindings.Type]float64{bindings.BeforeDeleteHelm: 4})},
		{"afterDeleteHelm", bindings.ScopeModule, `{"configVersion":"v1","afterDeleteHelm":3}`, orders(map[bindings.Type]float64{bindings.AfterDeleteHelm: 3})},
		{"onStartup module", bindings.ScopeModule, `{"configVersion":"v1","onStartup":1,"beforeHelm":2}`, orders(map[bindings.Type]float64{bindings.OnStartup: 1, bindings.BeforeHelm: 2})},
		{"yaml", bindings.ScopeGlobal, "configVersion: v1\nonStartup: 7\n", orders(map[bindings.Type]float64{bindings.OnStartup: 7})},
		{"tab-indented json", bindings.ScopeGlobal, "{\n\t\"configVersion\": \"v1\",\n\t\"onStartup\": 3\n}\n", orders(map[bindings.Type]float64{bindings.OnStartup: 3})},
	})
}

func TestParseV1Schedule(t *testing.T) {
	runParseCases(t, []parseCase{
		{"all fields", 0, `{"configVersion":"v1","kubernetes":[{"name":"pods","kind":"Pod"}],
			"schedule":[{"name":"every","crontab":"*/5 * * * * *","allowFailure":true,"queue":"slow","includeSnapshotsFrom":["pods"],"group":"g1"}]}`,
			func(t *testing.T, c *bindings.Config) {
				s := c.Schedules[0]
				wantEq(t, "name", s.Name, "every")
				wantEq(t, "crontab", s.Crontab, "*/5 * * * * *")
				wantEq(t, "allowFailure", s.AllowFailure, true)
				wantEq(t, "queue", s.Queue, "slow")
				wantEq(t, "group", s.Group, "g1")
				wantEq(t, "snapshots", slices.Equal(s.IncludeSnapshotsFrom, []string{"pods"}), true)
				from := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)
				wantEq(t, "next", nextAfter(t, s.Crontab, from), time.Date(2026, 1, 1, 0, 0, 5, 0, time.UTC))
			}},
		{"defaults and 5 fields", 0, `{"configVersion":"v1","schedule":[{"crontab":"0 * * * *"}]}`,
			func(t *testing.T, c *bindings.Config) {
				s := c.Schedules[0]
				wantEq(t, "name", s.Name, "schedule")
				wantEq(t, "queue", s.Queue, bindings.DefaultQueue)
				wantEq(t, "allowFailure", s.AllowFailure, false)
				from := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
				wantEq(t, "next", nextAfter(t, s.Crontab, from), time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC))
			}},
		{"descriptor", 0, `{"configVersion":"v1","schedule":[{"crontab":"@every 1m"}]}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "len", len(c.Schedules), 1) }},
		{"allowFailure yes", 0, `{"configVersion":"v1","schedule":[{"crontab":"* * * * *","allowFailure":"yes"}]}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "allowFailure", c.Schedules[0].AllowFailure, true) }},
		{"settings", 0, `{"configVersion":"v1","settings":{"executionMinInterval":"3s","executionBurst":2}}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "interval", c.Settings.ExecutionMinInterval, 3*time.Second)
				wantEq(t, "burst", c.Settings.ExecutionBurst, 2)
			}},
		{"settings seconds", 0, `{"configVersion":"v1","settings":{"executionMinInterval":1.5}}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "interval", c.Settings.ExecutionMinInterval, 1500*time.Millisecond)
			}},
	})
}

func TestParseV1Kubernetes(t *testing.T) {
	const full = `{"configVersion":"v1","kubernetes":[
	  {"name":"cms","apiVersion":"v1","kind":"ConfigMap",
	   "executeHookOnEvent":["Added","Deleted"],
	   "executeHookOnSynchronization":false,"waitForSynchronization":false,"keepFullObjectsInMemory":false,
	   "nameSelector":{"matchNames":["a","b"]},
	   "labelSelector":{"matchLabels":{"app":"x"},"matchExpressions":[{"key":"tier","operator":"In","values":["cache"]}]},
	   "fieldSelector":{"matchExpressions":[{"field":"metadata.namespace","operator":"Equals","value":"a"},{"field":"status.phase","operator":"!=","value":"Done"}]},
	   "namespace":{"nameSelector":{"matchNames":["default"]},"labelSelector":{"matchLabels":{"env":"prod"}}},
	   "jqFilter":".data",
	   "includeSnapshotsFrom":["cms","pods"],
	   "allowFailure":true,"queue":"cm-queue","group":"grp"},
	  {"name":"pods","kind":"Pod"}]}`
	runParseCases(t, []parseCase{
		{"all fields", 0, full, func(t *testing.T, c *bindings.Config) {
			k := c.Kubernetes[0]
			wantEq(t, "name", k.Name, "cms")
			wantEq(t, "apiVersion", k.APIVersion, "v1")
			wantEq(t, "kind", k.Kind, "ConfigMap")
			wantEq(t, "events", slices.Equal(k.ExecuteHookOnEvent, []bindings.WatchEvent{bindings.Added, bindings.Deleted}), true)
			wantEq(t, "sync", k.ExecuteHookOnSynchronization, false)
			wantEq(t, "wait", k.WaitForSynchronization, false)
			wantEq(t, "keep", k.KeepFullObjectsInMemory, false)
			wantEq(t, "names", slices.Equal(k.NameSelector, []string{"a", "b"}), true)
			wantEq(t, "labels", k.LabelSelector, "app=x,tier in (cache)")
			wantEq(t, "fields", k.FieldSelector, "metadata.namespace=a,status.phase!=Done")
			wantEq(t, "ns names", slices.Equal(k.Namespace.Names, []string{"default"}), true)
			wantEq(t, "ns labels", k.Namespace.LabelSelector, "env=prod")
			wantEq(t, "jqFilter", k.JqFilter, ".data")
			wantEq(t, "jq compiled", k.JqFilter != "", true)
			wantEq(t, "snapshots", slices.Equal(k.IncludeSnapshotsFrom, []string{"cms", "pods"}), true)
			wantEq(t, "allowFailure", k.AllowFailure, true)
			wantEq(t, "queue", k.Queue, "cm-queue")
			wantEq(t, "group", k.Group, "grp")
		}},
		{"defaults", 0, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"}]}`, func(t *testing.T, c *bindings.Config) {
			k := c.Kubernetes[0]
			wantEq(t, "name", k.Name, "kubernetes")
			wantEq(t, "events", slices.Equal(k.ExecuteHookOnEvent, bindings.AllWatchEvents()), true)
			wantEq(t, "sync", k.ExecuteHookOnSynchronization, true)
			wantEq(t, "wait", k.WaitForSynchronization, true)
			wantEq(t, "keep", k.KeepFullObjectsInMemory, true)
			wantEq(t, "labels nil", k.LabelSelector == "", true)
			wantEq(t, "jq nil", k.JqFilter == "", true)
			wantEq(t, "queue", k.Queue, bindings.DefaultQueue)
		}},
		{"empty executeHookOnEvent", 0, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","executeHookOnEvent":[]}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "events", len(c.Kubernetes[0].ExecuteHookOnEvent), 0)
			}},
		{"queue with slashes", 0, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","queue":"/modules/foo/pods"}]}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "queue", c.Kubernetes[0].Queue, "/modules/foo/pods") }},
		{"jq program runs", 0, `{"configVersion":"v1","kubernetes":[{"kind":"Pod","jqFilter":".metadata.labels"}]}`,
			func(t *testing.T, c *bindings.Config) {
				iter := compiled(t, c.Kubernetes[0].JqFilter).Run(map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}}})
				v, _ := iter.Next()
				wantEq(t, "label a", v.(map[string]any)["a"], any("b"))
			}},
		{"yaml kubernetes", 0, "configVersion: v1\nkubernetes:\n- name: x\n  kind: Secret\n  allowFailure: yes\n",
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "kind", c.Kubernetes[0].Kind, "Secret")
				wantEq(t, "allowFailure", c.Kubernetes[0].AllowFailure, true)
			}},
	})
}

// A binding's contexts carry the snapshots of its includeSnapshotsFrom and,
// in a group, of every kubernetes binding of the group (UPSTREAM §8.3).
func TestSnapshotNames(t *testing.T) {
	cfg, err := Parse([]byte(`{"configVersion":"v1",
	  "kubernetes":[{"name":"a","kind":"Pod","group":"g"},{"name":"b","kind":"Pod","group":"g","includeSnapshotsFrom":["c"]},
	    {"name":"c","kind":"Pod","includeSnapshotsFrom":["a","c"]},{"name":"d","kind":"Pod"}],
	  "schedule":[{"name":"e","crontab":"* * * * *","group":"g"},{"name":"plain","crontab":"* * * * *"}]}`), bindings.ScopeGlobal)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		binding  string
		schedule bool
		want     []string
		ok       bool
	}{
		{"a", false, []string{"a", "b"}, true},
		{"b", false, []string{"a", "b", "c"}, true},
		{"c", false, []string{"a", "c"}, true},
		{"d", false, nil, false},
		{"e", true, []string{"a", "b"}, true},  // a schedule binding in group g
		{"e", false, []string{"a", "b"}, true}, // found among the schedules too (a Group context)
		{"plain", true, nil, false},
		{"unknown", false, nil, false},
	}
	for _, tc := range cases {
		got, ok := cfg.SnapshotNames(tc.binding, tc.schedule)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("SnapshotNames(%q, %t) = %v, %t; want %v, %t", tc.binding, tc.schedule, got, ok, tc.want, tc.ok)
		}
	}
	if !cfg.NeedsSnapshots() {
		t.Error("NeedsSnapshots is false")
	}
}

// nextAfter is when crontab fires next after from, as the schedule actor
// reads it.
func nextAfter(t *testing.T, crontab string, from time.Time) time.Time {
	t.Helper()
	sched, err := ParseCrontab(crontab)
	if err != nil {
		t.Fatalf("crontab %q kept by Parse does not parse again: %v", crontab, err)
	}
	return sched.Next(from)
}

// compiled is the program of a jqFilter kept by Parse, as the kube actor
// compiles it.
func compiled(t *testing.T, filter string) *gojq.Code {
	t.Helper()
	code, err := CompileJq(filter)
	if err != nil || code == nil {
		t.Fatalf("jqFilter %q kept by Parse does not compile again: %v", filter, err)
	}
	return code
}
