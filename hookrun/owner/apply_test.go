package owner_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

const patience = 5 * time.Second

// TestApplyCoversEveryEffect: Shell.Apply has a case for every owner
// effect and applyRun for every hook run effect (those the core keeps
// included, as panics); Owner.Step has a case for every owner event and
// stepRun for every hook run effect.
func TestApplyCoversEveryEffect(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"Apply":    {Dir: ".", Marker: "ownerEffect"},
		"applyRun": {Dir: "..", Marker: "hookRunEffect", Qualifier: "hookrun"},
		"Step":     {Dir: ".", Marker: "ownerEvent"},
		"stepRun":  {Dir: "..", Marker: "hookRunEffect", Qualifier: "hookrun"},
	})
}

// TestShellApply: the shell answers the asker, sends tasks to the queue,
// asks the kube and config actors with the run's queue key as the tag, and
// records a hook run on the board under its owner; Publish goes to the
// owner's publish.
func TestShellApply(t *testing.T) {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	b := board.New()
	published := make(chan values.Scope, 1)
	shell := owner.Shell{Name: messages.ModuleOwner("demo"), Module: "demo", Board: b,
		Peers:   hookrun.Siblings{Queue: probe.PID, Kube: probe.PID, Config: probe.PID},
		Publish: func(s values.Scope) { published <- s }}
	pid := kit.Spawn("owner", func() actor.Actor {
		return actor.ReceiveFunc(func(ctx actor.Context) {
			if e, ok := ctx.Message().(owner.Effect); ok {
				shell.Apply(ctx, e)
			}
		})
	})
	probe.Send(pid, owner.CheckReply{Reply: messages.ConfigChecked{Owner: "module/demo", Round: 3}})
	if r := actortest.Expect[messages.ConfigChecked](probe, patience); r.Round != 3 {
		t.Fatalf("check reply %+v", r)
	}
	probe.Send(pid, owner.Enqueue{Tasks: []messages.Task{{Hook: "h.sh"}}})
	if q := actortest.Expect[messages.Enqueue](probe, patience); len(q.Tasks) != 1 || q.Tasks[0].Hook != "h.sh" {
		t.Fatalf("enqueued %+v", q)
	}
	probe.Send(pid, owner.InRun{Queue: "q", Effect: hookrun.GetSnapshots{Hook: "h.sh"}})
	if g := actortest.Expect[messages.GetSnapshots](probe, patience); g.Owner != "module/demo" || g.Hook != "h.sh" || g.Tag != "q" {
		t.Fatalf("snapshots asked as %+v", g)
	}
	probe.Send(pid, owner.InRun{Queue: "q", Effect: hookrun.WriteConfigPatch{Hook: "h.sh", Patch: []byte(`[]`)}})
	if p := actortest.Expect[messages.ConfigPatch](probe, patience); p.Hook != "h.sh" || p.Tag != "q" {
		t.Fatalf("config patch sent as %+v", p)
	}
	probe.Send(pid, owner.InRun{Queue: "q", Effect: hookrun.Ran{Hook: "h.sh", Contexts: 2}})
	probe.Send(pid, owner.Publish{})
	select {
	case <-published:
	case <-time.After(patience):
		t.Fatal("Publish did not reach the owner's publish")
	}
	if st := b.Hooks()["module/demo:h.sh"]; st.Runs != 1 || st.Contexts != 2 {
		t.Fatalf("board's record of the run: %+v", st)
	}
}
