package supervision

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Sender posts a message to an actor from any goroutine; the actor system's
// root context is one.
type Sender interface {
	Send(pid *actor.PID, message interface{})
}

// Deliver sends msg to pid once d has passed on clock. It is how actors wait:
// no goroutine sleeps, and under a fake clock the message arrives exactly
// when the test advances time.
func Deliver(clock Clock, sender Sender, pid *actor.PID, msg interface{}, d time.Duration) Timer {
	return clock.AfterFunc(d, func() { sender.Send(pid, msg) })
}

// Retrier schedules the next try of failed work after the policy's delay.
type Retrier struct {
	Clock  Clock
	Policy Policy
	Sender Sender
}

// Retry is the schedule of one retry, kept by the caller so that the attempt
// count and the next try are visible (queue snapshots show them).
type Retry struct {
	Attempt int
	Delay   time.Duration
	At      time.Time
	timer   Timer
}

// Cancel stops a retry that has not been delivered yet.
func (r Retry) Cancel() bool {
	if r.timer == nil {
		return false
	}
	return r.timer.Stop()
}

// Schedule delivers msg to pid after the delay for the given failed attempt.
func (r Retrier) Schedule(attempt int, pid *actor.PID, msg interface{}) Retry {
	return r.Arm(r.Plan(attempt), pid, msg)
}

// Plan computes the retry of a failed attempt without arming it, so that
// the caller can record and publish it before the timer exists (a test
// that waits for the timer then sees the published state).
func (r Retrier) Plan(attempt int) Retry {
	return PlanAt(r.Policy, attempt, r.Clock.Now())
}

// PlanAt computes the retry of a failed attempt at now, for pure decision
// code that takes the time as an input and leaves the timer to its shell.
func PlanAt(policy Policy, attempt int, now time.Time) Retry {
	d := policy.Delay(attempt)
	return Retry{Attempt: attempt, Delay: d, At: now.Add(d)}
}

// Arm starts the timer of a planned retry.
func (r Retrier) Arm(plan Retry, pid *actor.PID, msg interface{}) Retry {
	plan.timer = Deliver(r.Clock, r.Sender, pid, msg, plan.Delay)
	return plan
}
