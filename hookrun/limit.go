package hookrun

import "time"

// bucket is a hook's token bucket for settings.executionMinInterval and
// executionBurst: a token every interval, at most burst of them.
type bucket struct {
	tokens float64
	last   time.Time
}

// Limits paces an owner's hooks: one bucket per hook.
type Limits map[string]*bucket

// Delay takes a token for a run of h at now and returns how long the run
// must wait for it (0: run now).
func (l Limits) Delay(h Hook, now time.Time) time.Duration {
	if h.Config == nil || h.Config.Settings.ExecutionMinInterval <= 0 {
		return 0
	}
	st := h.Config.Settings
	burst := float64(max(st.ExecutionBurst, 1))
	b, ok := l[h.Name]
	if !ok {
		b = &bucket{tokens: burst, last: now}
		l[h.Name] = b
	}
	b.tokens = min(burst, b.tokens+float64(now.Sub(b.last))/float64(st.ExecutionMinInterval))
	b.last = now
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens * float64(st.ExecutionMinInterval))
}
