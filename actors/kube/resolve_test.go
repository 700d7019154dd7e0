package kube_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// slowDiscovery is the cluster's discovery mapper whose look-ups of one
// kind wait until release is closed: discovery that hangs (an aggregated
// API that does not answer).
type slowDiscovery struct {
	meta.RESTMapper
	kind    string
	release chan struct{}
}

func (s slowDiscovery) wait(kind string) {
	if strings.EqualFold(kind, s.kind) {
		<-s.release
	}
}

func (s slowDiscovery) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	s.wait(gk.Kind)
	return s.RESTMapper.RESTMapping(gk, versions...)
}

func (s slowDiscovery) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	s.wait(r.Resource)
	return s.RESTMapper.KindFor(r)
}

// kindMonitor parses a hook h with one binding "x" on apiVersion and kind.
func kindMonitor(tb testing.TB, apiVersion, kind string) messages.HookMonitor {
	tb.Helper()
	cfg, err := hookconfig.Parse([]byte(fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"x","apiVersion":%q,"kind":%q}]}`,
		apiVersion, kind)), bindings.ScopeGlobal)
	if err != nil {
		tb.Fatal(err)
	}
	return messages.HookMonitor{Hook: "h", Version: cfg.Version, Binding: cfg.Kubernetes[0]}
}

// While the kind of one owner's binding is being resolved, the actor goes
// on with the others' (their monitors sync, a kind it does not serve is
// reported as before) and answers for the waiting binding with no objects
// yet; the binding starts once its kind is resolved.
func TestSlowDiscoveryLeavesTheMailboxFree(t *testing.T) {
	ns := testKube.Namespace(t)
	kit := actortest.New(t)
	report, probe := kit.NewProbe(), kit.NewProbe()
	opts := onCluster(testKube.Config(t), kube.Options{Owner: actortest.EveryOwner(kit.NewProbe().PID), Report: report.PID})
	slow := slowDiscovery{RESTMapper: opts.Mapper, kind: "Secret", release: make(chan struct{})}
	opts.Mapper = slow
	pid := kit.Spawn("kube", kube.New(opts))

	kit.Send(pid, messages.WatchKube{Owner: "module/slow", Monitors: []messages.HookMonitor{kindMonitor(t, "v1", "Secret")}})
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorFor(t, ns, false)}})
	kit.Send(pid, messages.WatchKube{Owner: "module/bad", Monitors: []messages.HookMonitor{kindMonitor(t, "example.com/v1", "NoSuchThing")}})
	got := map[string]string{}
	for range 2 {
		synced := actortest.Expect[messages.KubeSynced](report, time.Minute)
		got[synced.Owner] = synced.Err
	}
	if e, ok := got["global"]; !ok || e != "" {
		t.Fatalf("global not synced without error while another owner's kind is resolved: %v", got)
	}
	wantErr := `hook h binding x: kind "NoSuchThing" of apiVersion "example.com/v1" is not served by the apiserver`
	if e := got["module/bad"]; !strings.Contains(e, wantErr) {
		t.Fatalf("KubeSynced of module/bad: error %q, want it to contain %q", e, wantErr)
	}
	probe.Send(pid, messages.GetSnapshots{Owner: "module/slow", Hook: "h"})
	if snaps := actortest.Expect[messages.HookSnapshots](probe, time.Minute).Snapshots; len(snaps) != 1 || snaps["x"] == nil || len(snaps["x"]) != 0 {
		t.Fatalf("snapshots of a binding being resolved: %#v, want x with no objects", snaps)
	}

	close(slow.release)
	if synced := actortest.Expect[messages.KubeSynced](report, time.Minute); synced.Owner != "module/slow" || synced.Err != "" {
		t.Fatalf("after discovery answered: %+v, want module/slow synced", synced)
	}
}
