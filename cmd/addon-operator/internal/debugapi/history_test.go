package debugapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// echo answers every string with itself.
func echo() actor.Actor {
	return actor.ReceiveFunc(func(ctx actor.Context) {
		if s, ok := ctx.Message().(string); ok {
			ctx.Respond(s)
		}
	})
}

// serveActors runs the debug API over a kit with actors at the given
// paths, each of which has handled one message, "hello".
func serveActors(t *testing.T, paths ...string) string {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	for _, p := range paths {
		pid, err := kit.Root.SpawnNamed(kit.System.TopProps("echo", echo), p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = kit.Root.StopFuture(pid).Wait() })
		probe.Send(pid, "hello")
		actortest.Expect[string](probe, 5*time.Second)
	}
	return serveKit(t, kit, filled())
}

func TestActorHistory(t *testing.T) {
	socket := serveActors(t, "ops/echo", "ops/a/worker", "ops/b/worker")
	for _, name := range []string{"ops/echo", "echo"} {
		status, _, body := get(t, socket, "/actors/history?actor="+name)
		var h debugapi.History
		if err := json.Unmarshal([]byte(body), &h); status != http.StatusOK || err != nil {
			t.Fatalf("%s: status %d, %v: %s", name, status, err, body)
		}
		last := h.Entries[len(h.Entries)-1]
		if h.Actor != "ops/echo" || last.Type != "string" || last.Outcome != "ok" || !last.At.Equal(actortest.Epoch) {
			t.Fatalf("%s: history %+v", name, h)
		}
	}
	for _, c := range []struct {
		name   string
		status int
		says   string
	}{
		{"nope", http.StatusNotFound, `no actor "nope" (see addon-operator actors)`},
		{"worker", http.StatusBadRequest, `actor "worker" is ambiguous: ops/a/worker, ops/b/worker`},
		{"", http.StatusBadRequest, "no actor named"},
	} {
		status, _, body := get(t, socket, "/actors/history?actor="+c.name)
		if status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%q: status %d %q, want %d saying %q", c.name, status, body, c.status, c.says)
		}
	}
}
