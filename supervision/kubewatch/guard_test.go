package kubewatch_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
	"github.com/addon-actors/addon-operator/test/actortest"
)

type gauge struct {
	mu sync.Mutex
	v  float64
}

func (g *gauge) Add(d float64) { g.mu.Lock(); g.v += d; g.mu.Unlock() }

func (g *gauge) value() float64 { g.mu.Lock(); defer g.mu.Unlock(); return g.v }

var refused = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}

// Transient failures are retried inside the call: the watch is down (one
// WARN, the gauge at 1, every failure counted) until a watch call
// succeeds, which logs one WARN with how long it was down.
func TestGuardRetriesTransientFailures(t *testing.T) {
	logs, g, failed := make(chan slog.Record, 16), &gauge{}, 0
	guard := kubewatch.New(context.Background(), kubewatch.Options{Log: slog.New(actortest.LogHandler(logs)),
		What: []any{"owner", "o"}, Down: g, Failed: func(error) { failed++ }, Retry: supervision.Fixed{Wait: time.Millisecond}})
	calls := 0
	v, err := kubewatch.Do(context.Background(), guard, "watch", func(context.Context) (int, error) {
		if calls++; calls <= 3 {
			if want := float64(min(calls-1, 1)); g.value() != want {
				t.Errorf("gauge %v at call %d, want %v", g.value(), calls, want)
			}
			return 0, fmt.Errorf("watch: %w", refused)
		}
		return 7, nil
	})
	if v != 7 || err != nil || calls != 4 || failed != 3 || g.value() != 0 {
		t.Fatalf("Do = %v, %v after %d calls, %d counted, gauge %v; want 7, nil, 4, 3, 0", v, err, calls, failed, g.value())
	}
	for _, want := range []string{"watch dropped: cannot watch; retrying", "watch resumed"} {
		r := <-logs
		if r.Level != slog.LevelWarn || r.Message != want {
			t.Fatalf("log %s %q, want WARN %q", r.Level, r.Message, want)
		}
		owner := ""
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "owner" {
				owner = a.Value.String()
			}
			return true
		})
		if owner != "o" {
			t.Fatalf("log %q names owner %q, want o", r.Message, owner)
		}
	}
	if len(logs) != 0 {
		t.Fatalf("%d more log records, want 2 in all", len(logs))
	}
}

// A refusal goes back to the caller at once (the reflector reports and
// retries it); the watch is down until a watch call succeeds, and a watch
// stopped while down leaves the gauge.
func TestGuardReturnsRefusalsAndReleasesOnStop(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	g := &gauge{}
	guard := kubewatch.New(ctx, kubewatch.Options{Down: g})
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "", errors.New("rbac"))
	calls := 0
	_, err := kubewatch.Do(ctx, guard, "list", func(context.Context) (int, error) { calls++; return 0, forbidden })
	if !apierrors.IsForbidden(err) || calls != 1 || g.value() != 1 {
		t.Fatalf("Do = %v after %d calls, gauge %v; want the refusal after 1 call, gauge 1", err, calls, g.value())
	}
	if _, err := kubewatch.Do(ctx, guard, "list", func(context.Context) (int, error) { return 1, nil }); err != nil || !guard.Down() {
		t.Fatalf("a listed watch: err %v, down %v; want down until its watch call succeeds", err, guard.Down())
	}
	stop() // the guard lets go in a goroutine of its own
	for deadline := time.Now().Add(time.Minute); guard.Down() && time.Now().Before(deadline); {
		runtime.Gosched()
	}
	if guard.Down() || g.value() != 0 {
		t.Fatalf("stopped watch: down %v, gauge %v; want up, 0", guard.Down(), g.value())
	}
}

func TestTransient(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{refused, true},
		{apierrors.NewServiceUnavailable("starting"), true},
		{apierrors.NewTooManyRequests("slow down", 1), true},
		{apierrors.NewInternalError(errors.New("etcd")), true},
		{apierrors.NewForbidden(gr, "", errors.New("rbac")), false},
		{apierrors.NewUnauthorized("token"), false},
		{apierrors.NewResourceExpired("too old"), false},
		{apierrors.NewNotFound(gr, "x"), false},
		{context.Canceled, false},
	} {
		if got := kubewatch.Transient(fmt.Errorf("wrapped: %w", c.err)); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
