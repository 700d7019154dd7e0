package hookconfig

import (
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// The older form, with the configurations exactly as spec/HOOKS.md shows them.
func TestParseV0(t *testing.T) {
	const hooksMDExample = `{
  "onKubernetesEvent": [
    {
      "name": "Trigger on labels changes of Pods with myLabel:myLabelValue in any namespace",
      "kind": "pod",
      "event": ["update"],
      "selector": {
        "matchLabels": {
          "myLabel": "myLabelValue"
        }
      },
      "namespaceSelector": {
        "any": true
      },
      "jqFilter": ".metadata.labels",
      "allowFailure": true
    }
  ]
}`
	const hooksMDSchedule = `{
  "schedule": [
    {
      "name": "incremental",
      "crontab": "* 2 */3 * * *",
      "allowFailure": true
    },
    {
      "crontab": "* 59 23 * * *",
      "allowFailure": false
    }
  ]
}`
	runParseCases(t, []parseCase{
		{"HOOKS.md onKubernetesEvent", 0, hooksMDExample, func(t *testing.T, c *bindings.Config) {
			wantEq(t, "version", c.Version, bindings.V0)
			k := c.Kubernetes[0]
			wantEq(t, "name", k.Name, "Trigger on labels changes of Pods with myLabel:myLabelValue in any namespace")
			wantEq(t, "kind", k.Kind, "Pod")
			wantEq(t, "apiVersion", k.APIVersion, "v1")
			wantEq(t, "events", slices.Equal(k.ExecuteHookOnEvent, []bindings.WatchEvent{bindings.Modified}), true)
			wantEq(t, "labels", k.LabelSelector, "myLabel=myLabelValue")
			wantEq(t, "any namespace", len(k.Namespace.Names), 0)
			wantEq(t, "jq", k.JqFilter != "", true)
			wantEq(t, "allowFailure", k.AllowFailure, true)
			wantEq(t, "no sync in v0", k.ExecuteHookOnSynchronization, false)
			wantEq(t, "queue", k.Queue, bindings.DefaultQueue)
		}},
		{"HOOKS.md schedule", 0, hooksMDSchedule, func(t *testing.T, c *bindings.Config) {
			wantEq(t, "len", len(c.Schedules), 2)
			wantEq(t, "name 0", c.Schedules[0].Name, "incremental")
			wantEq(t, "allowFailure 0", c.Schedules[0].AllowFailure, true)
			wantEq(t, "name 1", c.Schedules[1].Name, "schedule")
			wantEq(t, "allowFailure 1", c.Schedules[1].AllowFailure, false)
		}},
		{"ORDER bindings", bindings.ScopeGlobal, `{"onStartup": 10, "beforeAll": 1, "afterAll": 2}`, func(t *testing.T, c *bindings.Config) {
			wantEq(t, "len", len(c.Orders), 3)
			o, _ := c.Order(bindings.AfterAll)
			wantEq(t, "afterAll", o, 2.0)
		}},
		{"module ORDER bindings", bindings.ScopeModule, `{"beforeHelm": 1, "afterHelm": 2, "beforeDeleteHelm": 4, "afterDeleteHelm": 3}`, func(t *testing.T, c *bindings.Config) {
			wantEq(t, "len", len(c.Orders), 4)
			o, _ := c.Order(bindings.BeforeDeleteHelm)
			wantEq(t, "beforeDeleteHelm", o, 4.0)
		}},
		{"all fields", 0, `{"onKubernetesEvent":[{"name":"n","kind":"DaemonSet","event":["add","delete"],
			"selector":{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"tier","operation":"In","values":["cache"]},{"key":"x","operator":"Exists"}]},
			"namespaceSelector":{"matchNames":["somenamespace","proj-production"],"any":false},
			"jqFilter":".spec","allowFailure":false,"disableDebug":true}]}`, func(t *testing.T, c *bindings.Config) {
			k := c.Kubernetes[0]
			wantEq(t, "kind", k.Kind, "DaemonSet")
			wantEq(t, "apiVersion", k.APIVersion, "apps/v1")
			wantEq(t, "events", slices.Equal(k.ExecuteHookOnEvent, []bindings.WatchEvent{bindings.Added, bindings.Deleted}), true)
			wantEq(t, "labels", k.LabelSelector, "a=b,tier in (cache),x")
			wantEq(t, "ns", slices.Equal(k.Namespace.Names, []string{"somenamespace", "proj-production"}), true)
			wantEq(t, "disableDebug", k.DisableDebug, true)
			wantEq(t, "allowFailure", k.AllowFailure, false)
		}},
		{"defaults", 0, `{"onKubernetesEvent":[{"kind":"Namespace"}]}`, func(t *testing.T, c *bindings.Config) {
			k := c.Kubernetes[0]
			wantEq(t, "name", k.Name, "onKubernetesEvent")
			wantEq(t, "events", slices.Equal(k.ExecuteHookOnEvent, bindings.AllWatchEvents()), true)
			wantEq(t, "labels", k.LabelSelector == "", true)
		}},
		{"kind case-insensitive", 0, `{"onKubernetesEvent":[{"kind":"PersistentVolumeClaim"},{"kind":"STORAGECLASS"}]}`, func(t *testing.T, c *bindings.Config) {
			wantEq(t, "pvc", c.Kubernetes[0].Kind, "PersistentVolumeClaim")
			wantEq(t, "sc", c.Kubernetes[1].Kind, "StorageClass")
			wantEq(t, "sc api", c.Kubernetes[1].APIVersion, "storage.k8s.io/v1")
		}},
		{"every listed kind", 0, allV0Kinds(), func(t *testing.T, c *bindings.Config) {
			wantEq(t, "len", len(c.Kubernetes), len(v0Kinds()))
		}},
		{"unknown fields ignored in v0", 0, `{"onKubernetesEvent":[{"kind":"pod","whatever":1}],"schedule":[{"crontab":"* * * * *","x":2}]}`,
			func(t *testing.T, c *bindings.Config) { wantEq(t, "len", len(c.Kubernetes), 1) }},
		{"single event string", 0, `{"onKubernetesEvent":[{"kind":"pod","event":"delete"}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "event", c.Kubernetes[0].ExecuteHookOnEvent[0], bindings.Deleted)
			}},
	})
}

func allV0Kinds() string {
	s := `{"onKubernetesEvent":[`
	i := 0
	for k := range v0Kinds() {
		if i > 0 {
			s += ","
		}
		s += `{"kind":"` + k + `"}`
		i++
	}
	return s + "]}"
}
