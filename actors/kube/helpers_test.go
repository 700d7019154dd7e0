package kube_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// namedMonitor watches the ConfigMaps of ns with a jqFilter that keeps the
// name and the labels, so that a slim snapshot can be compared with the
// cluster.
func namedMonitor(tb testing.TB, ns string) messages.HookMonitor {
	cfg, err := hookconfig.Parse([]byte(fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1",`+
		`"kind":"ConfigMap","keepFullObjectsInMemory":false,"jqFilter":"{name: .metadata.name, labels: .metadata.labels}",`+
		`"namespace":{"nameSelector":{"matchNames":["%s"]}}}]}`, ns)), bindings.ScopeGlobal)
	if err != nil {
		tb.Fatal(err)
	}
	return messages.HookMonitor{Hook: "h", Version: cfg.Version, Binding: cfg.Kubernetes[0]}
}

// named is namedMonitor's filter result.
type named struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
}

// bindingContext is one element of a queued run's binding context.
type bindingContext struct {
	Binding      string `json:"binding"`
	Type         string `json:"type"`
	WatchEvent   string `json:"watchEvent"`
	FilterResult named  `json:"filterResult"`
	Objects      []struct {
		FilterResult named `json:"filterResult"`
	} `json:"objects"`
}

// contextsOf decodes the binding contexts of the queued runs.
func contextsOf(tb testing.TB, msg messages.Enqueue) []bindingContext {
	tb.Helper()
	var out []bindingContext
	for _, task := range msg.Tasks {
		var ctxs []bindingContext
		if err := json.Unmarshal(task.Context, &ctxs); err != nil {
			tb.Fatalf("binding context %s: %v", task.Context, err)
		}
		out = append(out, ctxs...)
	}
	return out
}

// event is what a test compares of an Event context.
type event struct{ watchEvent, name string }

func (c bindingContext) event() event { return event{c.WatchEvent, c.FilterResult.Name} }

// clusterLabels lists the ConfigMaps of ns: labels by name.
func clusterLabels(tb testing.TB, client kubernetes.Interface, ns string) map[string]map[string]string {
	tb.Helper()
	list, err := client.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, cm := range list.Items {
		out[cm.Name] = cm.Labels
	}
	return out
}

// checkSnapshot fails when the monitor's snapshot differs from the
// cluster's ConfigMaps in ns.
func checkSnapshot(tb testing.TB, got messages.HookSnapshots, want map[string]map[string]string) {
	tb.Helper()
	have := labelsOf(tb, got)
	if !reflect.DeepEqual(have, want) {
		names := slices.Sorted(maps.Keys(want))
		for _, name := range names {
			if !reflect.DeepEqual(have[name], want[name]) {
				tb.Errorf("%s: snapshot %v, cluster %v", name, have[name], want[name])
			}
		}
		for name := range have {
			if _, ok := want[name]; !ok {
				tb.Errorf("%s: in the snapshot, not in the cluster", name)
			}
		}
		tb.Fatalf("snapshot (%d objects) differs from the cluster (%d objects)", len(have), len(want))
	}
}

// expectEvents reads queued runs until it has seen the events want (in any
// order), failing on any other event in between.
func expectEvents(tb testing.TB, queue *actortest.Probe, want ...event) {
	tb.Helper()
	left := slices.Clone(want)
	for len(left) > 0 {
		for _, c := range contextsOf(tb, expectTask(queue, time.Minute)) {
			i := slices.Index(left, c.event())
			if c.Type != "Event" || i < 0 {
				tb.Fatalf("unexpected %s %s %q; still waiting for %v", c.Type, c.WatchEvent, c.FilterResult.Name, left)
			}
			left = slices.Delete(left, i, i+1)
		}
	}
}

// spawnKube spawns a kube actor on cfg in a new kit, with opts and probes
// for the queue (every owner's) and the report.
func spawnKube(t *testing.T, cfg *rest.Config, opts kube.Options) (kit *actortest.Kit, pid *actor.PID, queue, report *actortest.Probe) {
	t.Helper()
	kit = actortest.New(t)
	queue, report = kit.NewProbe(), kit.NewProbe()
	opts.Owner, opts.Report = actortest.EveryOwner(queue.PID), report.PID
	return kit, kit.Spawn("kube", kube.New(onCluster(cfg, opts))), queue, report
}

// expectTask waits for the next HookEvent the owner probe gets and returns
// what the owner queues for it (hookrun.TaskOf, the one place an event
// becomes a task), so that a test checks the task its event becomes.
func expectTask(p *actortest.Probe, timeout time.Duration) messages.Enqueue {
	ev := actortest.Expect[messages.HookEvent](p, timeout)
	return messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}}
}
