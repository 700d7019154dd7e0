package kube_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// waitPublished waits until the board's snapshot of global's hook h holds
// exactly the ConfigMaps want has (labels by name) and returns it.
func waitPublished(tb testing.TB, b *board.Board, want map[string]map[string]string) messages.HookSnapshots {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var last messages.HookSnapshots
	err := b.WaitFor(ctx, func(b *board.Board) bool {
		snaps, ok := b.Snapshots("global", "h")
		last = messages.HookSnapshots{Snapshots: snaps}
		return ok && reflect.DeepEqual(labelsOf(tb, last), want)
	})
	if err != nil {
		checkSnapshot(tb, last, want) // fails naming the differences
		tb.Fatalf("published snapshot: %v", err)
	}
	return last
}

// labelsOf is a namedMonitor snapshot as labels by name.
func labelsOf(tb testing.TB, s messages.HookSnapshots) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, o := range s.Snapshots["cms"] {
		var n named
		if err := json.Unmarshal(o.FilterResult, &n); err != nil {
			tb.Errorf("filter result %s: %v", o.FilterResult, err)
		}
		out[n.Name] = n.Labels
	}
	return out
}

// The actor publishes every binding's snapshot on the board: after the
// first listing, after changes and deletions (as the cluster has them, in
// the order GetSnapshots answers), and forgets an owner's when its
// bindings go.
func TestSnapshotsArePublished(t *testing.T) {
	ns := testKube.Namespace(t)
	client := testKube.Client(t)
	createConfigMaps(t, client, ns, 20)
	b := board.New()
	kit, pid, _, report := spawnKube(t, testKube.Config(t), kube.Options{Board: b})
	probe := kit.NewProbe()
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{namedMonitor(t, ns)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	waitPublished(t, b, clusterLabels(t, client, ns))

	patchLabels(t, client, ns, 2, 5, "1")
	for _, name := range []string{"cm-00001", "cm-00003"} {
		if err := client.CoreV1().ConfigMaps(ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	published := waitPublished(t, b, clusterLabels(t, client, ns))
	if n := len(published.Snapshots["cms"]); n != 18 {
		t.Fatalf("%d objects published, want 18", n)
	}
	probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
	if asked := actortest.Expect[messages.HookSnapshots](probe, time.Minute); !reflect.DeepEqual(asked.Snapshots, published.Snapshots) {
		t.Fatalf("published snapshot differs from the one the actor answers:\npublished %v\nanswered  %v", published.Snapshots, asked.Snapshots)
	}

	kit.Send(pid, messages.WatchKube{Owner: "global"})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	if snaps, ok := b.Snapshots("global", "h"); ok {
		t.Fatalf("snapshots of global's hook stay published after its bindings went: %v", snaps)
	}
}
