package hookconfig

import (
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// kube1 is a v1 configuration with one kubernetes binding made of fields.
func kube1(fields string) string {
	return `{"configVersion":"v1","kubernetes":[{"kind":"Pod",` + fields + `}]}`
}

func wantEvents(t *testing.T, c *bindings.Config, want ...bindings.WatchEvent) {
	t.Helper()
	got := c.Kubernetes[0].ExecuteHookOnEvent
	if got == nil || !slices.Equal(got, want) {
		t.Errorf("events = %#v, want %#v", got, want)
	}
}

// The deprecated watchEvent and executeHookOnEvent: [] (snapshot only).
func TestParseV1WatchEvent(t *testing.T) {
	runParseCases(t, []parseCase{
		{"watchEvent alone", 0, kube1(`"watchEvent":["Added"]`),
			func(t *testing.T, c *bindings.Config) { wantEvents(t, c, bindings.Added) }},
		{"executeHookOnEvent wins over watchEvent", 0, kube1(`"watchEvent":["Added"],"executeHookOnEvent":["Deleted","Modified"]`),
			func(t *testing.T, c *bindings.Config) { wantEvents(t, c, bindings.Deleted, bindings.Modified) }},
		{"empty executeHookOnEvent wins over watchEvent", 0, kube1(`"watchEvent":["Added"],"executeHookOnEvent":[]`),
			func(t *testing.T, c *bindings.Config) { wantEvents(t, c) }},
		{"empty watchEvent", 0, kube1(`"watchEvent":[]`),
			func(t *testing.T, c *bindings.Config) { wantEvents(t, c) }},
		{"empty executeHookOnEvent in yaml", 0, "configVersion: v1\nkubernetes:\n- kind: Pod\n  executeHookOnEvent: []\n",
			func(t *testing.T, c *bindings.Config) { wantEvents(t, c) }},
		{"neither", 0, kube1(`"name":"x"`),
			func(t *testing.T, c *bindings.Config) {
				wantEvents(t, c, bindings.Added, bindings.Modified, bindings.Deleted)
			}},
	})
}

func TestParseV1ResynchronizationPeriod(t *testing.T) {
	runParseCases(t, []parseCase{
		{"kept as written", 0, kube1(`"resynchronizationPeriod":"10s"`), func(t *testing.T, c *bindings.Config) {
			wantEq(t, "period", c.Kubernetes[0].ResynchronizationPeriod, "10s")
			wantEq(t, "no webhooks", c.HasWebhooks(), false)
		}},
		{"any string", 0, kube1(`"resynchronizationPeriod":"hourly"`), func(t *testing.T, c *bindings.Config) {
			wantEq(t, "period", c.Kubernetes[0].ResynchronizationPeriod, "hourly")
		}},
	})
}

// waitForSynchronization: false takes effect only with a queue other than
// main.
func TestParseV1WaitForSynchronization(t *testing.T) {
	wait := func(want bool) func(*testing.T, *bindings.Config) {
		return func(t *testing.T, c *bindings.Config) {
			wantEq(t, "wait", c.Kubernetes[0].WaitForSynchronization, want)
		}
	}
	runParseCases(t, []parseCase{
		{"false without queue", 0, kube1(`"waitForSynchronization":false`), wait(true)},
		{"false with queue main", 0, kube1(`"waitForSynchronization":false,"queue":"main"`), wait(true)},
		{"false with a named queue", 0, kube1(`"waitForSynchronization":false,"queue":"slow"`), wait(false)},
		{"default with a named queue", 0, kube1(`"queue":"slow"`), wait(true)},
		{"true with a named queue", 0, kube1(`"waitForSynchronization":true,"queue":"slow"`), wait(true)},
	})
}

func TestParseV1FieldSelectorOperators(t *testing.T) {
	sel := func(want string) func(*testing.T, *bindings.Config) {
		return func(t *testing.T, c *bindings.Config) {
			wantEq(t, "fieldSelector", c.Kubernetes[0].FieldSelector, want)
		}
	}
	expr := func(op string) string {
		return kube1(`"fieldSelector":{"matchExpressions":[{"field":"status.phase","operator":"` + op + `","value":"Running"}]}`)
	}
	runParseCases(t, []parseCase{
		{"=", 0, expr("="), sel("status.phase=Running")},
		{"==", 0, expr("=="), sel("status.phase=Running")},
		{"Equals", 0, expr("Equals"), sel("status.phase=Running")},
		{"!=", 0, expr("!="), sel("status.phase!=Running")},
		{"NotEquals", 0, expr("NotEquals"), sel("status.phase!=Running")},
		{"metadata.name without nameSelector", 0,
			kube1(`"fieldSelector":{"matchExpressions":[{"field":"metadata.name","operator":"=","value":"a"}]}`), sel("metadata.name=a")},
		{"metadata.name with an empty nameSelector", 0,
			kube1(`"nameSelector":{"matchNames":[]},"fieldSelector":{"matchExpressions":[{"field":"metadata.name","operator":"=","value":"a"}]}`),
			sel("metadata.name=a")},
		{"nameSelector with another field", 0,
			kube1(`"nameSelector":{"matchNames":["a"]},"fieldSelector":{"matchExpressions":[{"field":"metadata.namespace","operator":"=","value":"n"}]}`),
			sel("metadata.namespace=n")},
	})
}

func TestParseV1NamespaceSelector(t *testing.T) {
	runParseCases(t, []parseCase{
		{"nameSelector", 0, kube1(`"namespace":{"nameSelector":{"matchNames":["a","b"]}}`), func(t *testing.T, c *bindings.Config) {
			ns := c.Kubernetes[0].Namespace
			wantEq(t, "names", slices.Equal(ns.Names, []string{"a", "b"}), true)
			wantEq(t, "labels nil", ns.LabelSelector == "", true)
		}},
		{"labelSelector", 0, kube1(`"namespace":{"labelSelector":{"matchExpressions":[{"key":"env","operator":"Exists"}]}}`),
			func(t *testing.T, c *bindings.Config) {
				ns := c.Kubernetes[0].Namespace
				wantEq(t, "names", len(ns.Names), 0)
				wantEq(t, "labels", ns.LabelSelector, "env")
			}},
		{"none is every namespace", 0, kube1(`"name":"x"`), func(t *testing.T, c *bindings.Config) {
			wantEq(t, "all", c.Kubernetes[0].Namespace.Names == nil && c.Kubernetes[0].Namespace.LabelSelector == "", true)
		}},
	})
}

func TestParseV1IncludeSnapshotsFrom(t *testing.T) {
	runParseCases(t, []parseCase{
		{"own and other kubernetes bindings", 0, `{"configVersion":"v1","kubernetes":[
			{"name":"a","kind":"Pod","includeSnapshotsFrom":["a","b"]},{"name":"b","kind":"Secret"}],
			"schedule":[{"crontab":"* * * * *","includeSnapshotsFrom":["b"]}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "kube", slices.Equal(c.Kubernetes[0].IncludeSnapshotsFrom, []string{"a", "b"}), true)
				wantEq(t, "schedule", slices.Equal(c.Schedules[0].IncludeSnapshotsFrom, []string{"b"}), true)
			}},
		{"a defaulted name", 0, `{"configVersion":"v1","kubernetes":[{"kind":"Pod"}],
			"schedule":[{"crontab":"* * * * *","includeSnapshotsFrom":["kubernetes"]}]}`,
			func(t *testing.T, c *bindings.Config) {
				wantEq(t, "schedule", slices.Equal(c.Schedules[0].IncludeSnapshotsFrom, []string{"kubernetes"}), true)
			}},
	})
}

// The older form reads as before: watchEvent-like keys of v1 mean nothing
// there and extra keys inside onKubernetesEvent are ignored.
func TestParseV0Unaffected(t *testing.T) {
	runParseCases(t, []parseCase{
		{"extra keys ignored", 0, `{"onKubernetesEvent":[{"kind":"pod","event":["add"],"watchEvent":["Deleted"],"resynchronizationPeriod":"1m","mode":"v0"}]}`,
			func(t *testing.T, c *bindings.Config) {
				k := c.Kubernetes[0]
				wantEq(t, "version", c.Version, bindings.V0)
				wantEvents(t, c, bindings.Added)
				wantEq(t, "wait", k.WaitForSynchronization, false)
				wantEq(t, "period", k.ResynchronizationPeriod, "")
				wantEq(t, "no webhooks", c.HasWebhooks(), false)
			}},
	})
}
