package hookconfig

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// sdkConfig is `hook config` output as module-sdk v0.12 prints it for two
// hooks and a readiness hook (nulls included).
const sdkConfig = `{"version":"v1","hooks":[
 {"configVersion":"v1","metadata":{"name":"values","path":"hooks/values"},"onStartup":10,"beforeHelm":5,
  "schedule":[{"name":"every-minute","crontab":"* * * * *"}],"kubernetes":null,"allowFailure":false,"logLevel":"info"},
 {"configVersion":"v1","metadata":{"name":"pods","path":"hooks/pods"},
  "kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod","jqFilter":".metadata.name","executeHookOnEvent":false,
    "nameSelector":null,"labelSelector":{"matchLabels":{"app":"x"}},"keepFullObjectsInMemory":false}],
  "settings":{"executionMinInterval":3000000000,"executionBurst":2,"enableSchedulesOnStartup":true}}],
 "readiness":{"configVersion":"v1","metadata":{"name":"readiness","path":""},
  "schedule":[{"name":"default-module-moduleReadinessSchedule","crontab":"*/15 * * * * *","queue":"main"}]},
 "has_settings_check":true}`

func parseBatchOK(t *testing.T, in string, scope bindings.Scope) *BatchConfig {
	t.Helper()
	cfg, err := ParseBatch([]byte(in), scope)
	if err != nil {
		t.Fatalf("ParseBatch: %v", err)
	}
	return cfg
}

func TestParseBatchSDKOutput(t *testing.T) {
	cfg := parseBatchOK(t, sdkConfig, bindings.ScopeModule)
	if len(cfg.Hooks) != 2 || cfg.Readiness == nil || !cfg.HasSettingsCheck {
		t.Fatalf("got %d hooks, readiness %v, check %v", len(cfg.Hooks), cfg.Readiness, cfg.HasSettingsCheck)
	}
	values, pods := cfg.Hooks[0], cfg.Hooks[1]
	wantEq(t, "key 0", values.Key, "0")
	wantEq(t, "name 0", values.Name, "values")
	wantEq(t, "key 1", pods.Key, "1")
	wantEq(t, "onStartup", values.Config.Orders[bindings.OnStartup], 10)
	wantEq(t, "beforeHelm", values.Config.Orders[bindings.BeforeHelm], 5)
	wantEq(t, "schedule group", values.Config.Schedules[0].Group, BatchGroup)
	wantEq(t, "schedule queue", values.Config.Schedules[0].Queue, "main")
	k := pods.Config.Kubernetes[0]
	wantEq(t, "kube group", k.Group, BatchGroup)
	wantEq(t, "no events", len(k.ExecuteHookOnEvent), 0)
	if k.ExecuteHookOnEvent == nil {
		t.Error("executeHookOnEvent false must be an empty list, not all events")
	}
	wantEq(t, "keepFull", k.KeepFullObjectsInMemory, false)
	wantEq(t, "label selector", k.LabelSelector, "app=x")
	wantEq(t, "interval", pods.Config.Settings.ExecutionMinInterval, 3*time.Second)
	wantEq(t, "burst", pods.Config.Settings.ExecutionBurst, 2)
	wantEq(t, "ready key", cfg.Readiness.Key, ReadyKey)
	wantEq(t, "ready crontab", cfg.Readiness.Config.Schedules[0].Crontab, "*/15 * * * * *")
	wantEq(t, "ready group", cfg.Readiness.Config.Schedules[0].Group, BatchGroup)
}

func TestParseBatchConversions(t *testing.T) {
	cases := []struct {
		name  string
		scope bindings.Scope
		hook  string
		check func(t *testing.T, c *bindings.Config)
	}{
		{"global beforeHelm is beforeAll, afterHelm afterAll", bindings.ScopeGlobal, `{"beforeHelm":1,"afterHelm":2}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "beforeAll", c.Orders[bindings.BeforeAll], 1)
				wantEq(t, "afterAll", c.Orders[bindings.AfterAll], 2)
				wantEq(t, "orders", len(c.Orders), 2)
			}},
		{"module delete bindings", bindings.ScopeModule, `{"afterDeleteHelm":3,"beforeDeleteHelm":4}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "afterDeleteHelm", c.Orders[bindings.AfterDeleteHelm], 3)
				wantEq(t, "beforeDeleteHelm", c.Orders[bindings.BeforeDeleteHelm], 4)
			}},
		{"executeHookOnEvent true or absent is every event", bindings.ScopeModule,
			`{"kubernetes":[{"kind":"Pod","executeHookOnEvent":true},{"name":"b","kind":"Pod"}]}`,
			func(t *testing.T, c *bindings.Config) {
				for _, k := range c.Kubernetes {
					if !slices.Equal(k.ExecuteHookOnEvent, bindings.AllWatchEvents()) {
						t.Errorf("%s events = %v", k.Name, k.ExecuteHookOnEvent)
					}
				}
			}},
		{"defaults", bindings.ScopeModule, `{"kubernetes":[{"kind":"Pod"}]}`,
			func(t *testing.T, c *bindings.Config) {
				k := c.Kubernetes[0]
				wantEq(t, "sync", k.ExecuteHookOnSynchronization, true)
				wantEq(t, "wait", k.WaitForSynchronization, true)
				wantEq(t, "keepFull", k.KeepFullObjectsInMemory, false)
				wantEq(t, "snapshots", c.NeedsSnapshots(), true)
			}},
		{"keepFullObjectsInMemory true kept", bindings.ScopeModule, `{"kubernetes":[{"kind":"Pod","keepFullObjectsInMemory":true}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "keepFull", c.Kubernetes[0].KeepFullObjectsInMemory, true)
			}},
		{"ignored keys", bindings.ScopeModule,
			`{"allowFailure":true,"logLevel":"debug","schedule":[{"crontab":"* * * * *","allowFailure":true,"includeSnapshotsFrom":["x"]}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "allowFailure", c.Schedules[0].AllowFailure, false)
				wantEq(t, "include", len(c.Schedules[0].IncludeSnapshotsFrom), 0)
			}},
		// module-sdk has no watchEvent or mode (UPSTREAM §1.4): they are
		// not read, neither refused as in a shell hook's v1 config.
		{"watchEvent and mode are not read", bindings.ScopeModule,
			`{"kubernetes":[{"kind":"Pod","watchEvent":["Deleted"],"mode":"v0"}]}`,
			func(t *testing.T, c *bindings.Config) {
				if !slices.Equal(c.Kubernetes[0].ExecuteHookOnEvent, bindings.AllWatchEvents()) {
					t.Errorf("events = %v, want every event", c.Kubernetes[0].ExecuteHookOnEvent)
				}
			}},
		{"burst alone", bindings.ScopeModule, `{"settings":{"executionBurst":3}}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "settings", c.Settings, bindings.Settings{ExecutionBurst: 3})
			}},
		{"zero settings are unset", bindings.ScopeModule, `{"settings":{"executionMinInterval":0,"executionBurst":0}}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "settings", c.Settings, bindings.Settings{}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := parseBatchOK(t, `{"version":"v1","hooks":[`+tc.hook+`]}`, tc.scope)
			tc.check(t, cfg.Hooks[0].Config)
		})
	}
}

func TestParseBatchLegacyArray(t *testing.T) {
	cfg := parseBatchOK(t, ` [{"metadata":{"name":"a"},"onStartup":1},{"metadata":{"name":"b"},"afterHelm":2}]`+"\n", bindings.ScopeModule)
	if len(cfg.Hooks) != 2 || cfg.Readiness != nil || cfg.HasSettingsCheck {
		t.Fatalf("got %+v", cfg)
	}
	wantEq(t, "second", cfg.Hooks[1].Name, "b")
	wantEq(t, "key", cfg.Hooks[1].Key, "1")
}

func TestParseBatchErrors(t *testing.T) {
	cases := []struct {
		name, in string
		kind     error
		want     []string
	}{
		{"empty", "", ErrBatch, []string{"empty output"}},
		{"not json", "Found 1 items", ErrBatch, []string{"line 1"}},
		{"unknown version", `{"version":"v2","hooks":[]}`, ErrBatch, []string{`unknown version "v2"`}},
		{"no version", `{"hooks":[]}`, ErrBatch, []string{`unknown version ""`}},
		{"kind missing", `{"version":"v1","hooks":[{"metadata":{"name":"a"}},{"metadata":{"name":"pods"},"kubernetes":[{"name":"x"}]}]}`,
			ErrBadValue, []string{`hooks[1] "pods" (key 1)`, "kubernetes[0].kind"}},
		{"bad crontab", `{"version":"v1","hooks":[{"metadata":{"name":"s"},"schedule":[{"crontab":"every day"}]}]}`,
			ErrBadCrontab, []string{`hooks[0] "s"`, "schedule[0].crontab"}},
		{"bad jq", `{"version":"v1","hooks":[{"kubernetes":[{"kind":"Pod","jqFilter":".["}]}]}`,
			ErrBadJqFilter, []string{"hooks[0] (key 0)", "kubernetes[0].jqFilter"}},
		{"order not a number", `{"version":"v1","hooks":[{"metadata":{"name":"o"},"onStartup":"x"}]}`,
			ErrBadValue, []string{`hooks[0] "o"`, "onStartup"}},
		{"executeHookOnEvent string", `{"version":"v1","hooks":[{"kubernetes":[{"kind":"Pod","executeHookOnEvent":"yes"}]}]}`,
			ErrSyntax, []string{"kubernetes[0].executeHookOnEvent"}},
		{"bad readiness", `{"version":"v1","hooks":[],"readiness":{"metadata":{"name":"readiness"},"schedule":[{"crontab":"x"}]}}`,
			ErrBadCrontab, []string{`readiness hook "readiness"`, "schedule[0].crontab"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBatch([]byte(tc.in), bindings.ScopeModule)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", err, tc.kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}
