package supervision_test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

type job struct{}

type retryScheduled struct {
	Attempt int
	Delay   time.Duration
	At      time.Time
}

type jobSucceeded struct {
	Tries int
	At    time.Time
}

// flaky fails its job a given number of times, scheduling each retry
// through the retrier, and reports every step to the probe.
type flaky struct {
	failures int
	tries    int
	retrier  supervision.Retrier
	clock    supervision.Clock
	report   *actor.PID
}

func (f *flaky) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(job); !ok {
		return
	}
	f.tries++
	if f.tries <= f.failures {
		r := f.retrier.Schedule(f.tries, ctx.Self(), job{})
		ctx.Send(f.report, retryScheduled{Attempt: r.Attempt, Delay: r.Delay, At: r.At})
		return
	}
	ctx.Send(f.report, jobSucceeded{Tries: f.tries, At: f.clock.Now()})
}

func TestRetryFollowsThePolicyOnTheFakeClock(t *testing.T) {
	jitter := 400 * time.Millisecond
	cases := map[string]struct {
		policy supervision.Policy
		want   []time.Duration
	}{
		"exponential": {
			supervision.Exponential{Initial: 5 * time.Second, Max: 32 * time.Second, Jitter: fixedJitter(jitter)},
			[]time.Duration{5 * time.Second, 7*time.Second + jitter, 9*time.Second + jitter, 13*time.Second + jitter, 21*time.Second + jitter},
		},
		"fixed": {
			supervision.Fixed{Wait: 3 * time.Second},
			[]time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second, 3 * time.Second, 3 * time.Second},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { runFlakyJob(t, c.policy, c.want) })
	}
}

func runFlakyJob(t *testing.T, policy supervision.Policy, want []time.Duration) {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	retrier := supervision.Retrier{Clock: kit.Clock, Policy: policy, Sender: kit.Root}
	pid := kit.Spawn("flaky", func() actor.Actor {
		return &flaky{failures: len(want), retrier: retrier, clock: kit.Clock, report: probe.PID}
	})

	kit.Send(pid, job{})
	elapsed := time.Duration(0)
	for i, delay := range want {
		s := actortest.Expect[retryScheduled](probe, 5*time.Second)
		if s.Attempt != i+1 || s.Delay != delay || !s.At.Equal(actortest.Epoch.Add(elapsed+delay)) {
			t.Fatalf("retry %d: got %+v, want attempt %d after %s", i+1, s, i+1, delay)
		}
		if err := kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		kit.Clock.Advance(delay - time.Millisecond)
		probe.ExpectNoMessage(5 * time.Millisecond)
		kit.Clock.Advance(time.Millisecond)
		elapsed += delay
	}
	done := actortest.Expect[jobSucceeded](probe, 5*time.Second)
	if done.Tries != len(want)+1 || !done.At.Equal(actortest.Epoch.Add(elapsed)) {
		t.Fatalf("success %+v, want try %d at +%s", done, len(want)+1, elapsed)
	}
	if p := kit.Clock.Pending(); len(p) != 0 {
		t.Fatalf("timers left after success: %v", p)
	}
}

func TestRetryCancel(t *testing.T) {
	clock := supervision.NewFakeClock(epoch)
	kit := actortest.New(t)
	probe := kit.NewProbe()
	r := supervision.Retrier{Clock: clock, Policy: supervision.Fixed{Wait: time.Second}, Sender: kit.Root}
	retry := r.Schedule(1, probe.PID, job{})
	if !retry.Cancel() {
		t.Fatal("Cancel of a pending retry reported false")
	}
	clock.Advance(time.Minute)
	probe.ExpectNoMessage(5 * time.Millisecond)
}
