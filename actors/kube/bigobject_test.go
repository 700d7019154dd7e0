package kube_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/heap"
)

// bigPayload is the data of each big ConfigMap: just under the 1 MiB the
// apiserver allows a ConfigMap (etcd takes 1.5 MiB a request); bigCount of
// them make 10 MB for the monitor to list and watch.
const (
	bigPayload = 1000 * 1000
	bigCount   = 10
)

// ConfigMaps of 1 MB each, watched with a jqFilter and
// keepFullObjectsInMemory false, run the hook with the filter result;
// what the operator keeps of them is the filter result and their identity:
// the binding contexts and the snapshot are a few hundred bytes, and the
// heap grows by less than half their size. (What it grows by is the watch
// stream's buffers, which client-go sizes to the largest object, once per
// watch: about 3 MB here.)
func TestBigObjectsKeepOnlyFilterResult(t *testing.T) {
	ns := testKube.Namespace(t)
	client := testKube.Client(t)
	cms := client.CoreV1().ConfigMaps(ns)
	for i := range bigCount {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("big%d", i)},
			Data: map[string]string{"payload": strings.Repeat(string(rune('a'+i)), bigPayload)}}
		if _, err := cms.Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{})
	before := int64(heap.Live())
	filter := `{name: .metadata.name, size: (.data.payload | length), first: .data.payload[0:1]}`
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorWith(t, ns, "ConfigMap", filter, false)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := expectTask(queue, time.Minute).Tasks[0]
	var results []string
	for i := range bigCount {
		results = append(results, fmt.Sprintf(`{"filterResult":{"first":"%c","name":"big%d","size":1000000}}`, 'a'+i, i))
	}
	want := `[{"binding":"cms","type":"Synchronization","objects":[` + strings.Join(results, ",") + `]}]`
	if string(sync.Context) != want {
		t.Fatalf("Synchronization context\n%s\nwant\n%s", sync.Context, want)
	}

	change(t, cms, "big1", func(cm *corev1.ConfigMap) { cm.Data["payload"] = strings.Repeat("z", bigPayload-1) })
	event := expectTask(queue, time.Minute).Tasks[0]
	want = `[{"binding":"cms","type":"Event","watchEvent":"Modified","filterResult":{"first":"z","name":"big1","size":999999}}]`
	if string(event.Context) != want {
		t.Fatalf("event context of %d bytes: %.2000s\nwant %s", len(event.Context), event.Context, want)
	}

	probe := kit.NewProbe()
	probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
	snap := actortest.Expect[messages.HookSnapshots](probe, time.Minute)
	if len(snap.Snapshots["cms"]) != bigCount {
		t.Fatalf("snapshot of %d objects, want %d", len(snap.Snapshots["cms"]), bigCount)
	}
	for _, o := range snap.Snapshots["cms"] {
		if o.Object != nil || len(o.FilterResult) > 64 {
			t.Fatalf("snapshot keeps object of %d bytes and filter result %s", len(o.Object), o.FilterResult)
		}
	}
	// The informer's cache holds slim objects: the payload does not stay
	// on the heap.
	if grown := int64(heap.Live()) - before; grown > bigCount*bigPayload/2 {
		t.Fatalf("heap grew by %d bytes while watching %d bytes of ConfigMaps", grown, bigCount*bigPayload)
	} else {
		t.Logf("heap grew by %d bytes", grown)
	}
}
