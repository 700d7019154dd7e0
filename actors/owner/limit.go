package owner

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/supervision"
)

// bucket is a hook's token bucket for settings.executionMinInterval and
// executionBurst: a token every interval, at most burst of them.
type bucket struct {
	tokens float64
	last   time.Time
}

// rateDelay takes a token for a run of a hook with settings and returns how
// long the run must wait for it (0: run now).
func (s *HookStep) rateDelay(h hookrun.Hook, now time.Time) time.Duration {
	if h.Config == nil || h.Config.Settings.ExecutionMinInterval <= 0 {
		return 0
	}
	st := h.Config.Settings
	burst := float64(max(st.ExecutionBurst, 1))
	if s.buckets == nil {
		s.buckets = map[string]*bucket{}
	}
	b, ok := s.buckets[h.Name]
	if !ok {
		b = &bucket{tokens: burst, last: now}
		s.buckets[h.Name] = b
	}
	b.tokens = min(burst, b.tokens+float64(now.Sub(b.last))/float64(st.ExecutionMinInterval))
	b.last = now
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens * float64(st.ExecutionMinInterval))
}

// rateLimited is delivered by the clock when a held run may go.
type rateLimited struct{ tag string }

// hold keeps a run until its token arrives, through the clock.
func (s *HookStep) hold(ctx actor.Context, req hookexec.Request, wait time.Duration) {
	s.held = &req
	supervision.Deliver(s.Clock, ctx.ActorSystem().Root, ctx.Self(), rateLimited{tag: s.Tag}, wait)
}

// OnRateLimited starts the run that waited for its token.
func (s *HookStep) OnRateLimited(ctx actor.Context) {
	if s.held == nil {
		return
	}
	req := *s.held
	s.held = nil
	s.dispatch(ctx, req)
}
