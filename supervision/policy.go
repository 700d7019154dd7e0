package supervision

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Policy decides how long to wait before the next try of something that has
// failed attempt times (attempt starts at 1).
type Policy interface {
	Delay(attempt int) time.Duration
}

// Defaults of DESIGN §4.
const (
	DefaultInitialDelay = 5 * time.Second
	DefaultMaxDelay     = 32 * time.Second
	// JitterLimit bounds the random part added to exponential delays.
	JitterLimit = time.Second
)

// Exponential waits Initial after the first failure, then
// Initial + 2^(n-1) s plus a jitter below JitterLimit, never more than Max.
type Exponential struct {
	Initial time.Duration
	Max     time.Duration
	// Jitter returns a duration in [0, limit). Nil means uniformly random;
	// tests pass a fixed function so that delays are exact.
	Jitter func(limit time.Duration) time.Duration
}

// Delay implements Policy.
func (p Exponential) Delay(attempt int) time.Duration {
	if attempt <= 1 {
		return min(p.Initial, p.Max)
	}
	step := time.Duration(1) << min(attempt-1, 30) * time.Second
	d := p.Initial + step + p.jitter()
	if d > p.Max || d < 0 {
		return p.Max
	}
	return d
}

func (p Exponential) jitter() time.Duration {
	if p.Jitter != nil {
		return p.Jitter(JitterLimit)
	}
	return rand.N(JitterLimit)
}

// Fixed waits the same delay after every failure.
type Fixed struct {
	Wait time.Duration
}

// Delay implements Policy.
func (p Fixed) Delay(int) time.Duration { return p.Wait }

// Setting names read by PolicyFromEnv.
const (
	EnvRetryPolicy       = "RETRY_POLICY"
	EnvRetryInitialDelay = "RETRY_INITIAL_DELAY"
	EnvRetryMaxDelay     = "RETRY_MAX_DELAY"
)

// ErrBadSetting marks a retry setting that cannot be used.
var ErrBadSetting = errors.New("bad retry setting")

// PolicyFromEnv builds the policy chosen by RETRY_POLICY (exponential, the
// default, or fixed), RETRY_INITIAL_DELAY and RETRY_MAX_DELAY. Delays are Go
// durations ("5s", "1m") or whole seconds ("5"). The fixed policy waits
// RETRY_INITIAL_DELAY every time.
func PolicyFromEnv(lookup func(string) (string, bool)) (Policy, error) {
	initial, err := durationSetting(lookup, EnvRetryInitialDelay, DefaultInitialDelay)
	if err != nil {
		return nil, err
	}
	maxDelay, err := durationSetting(lookup, EnvRetryMaxDelay, DefaultMaxDelay)
	if err != nil {
		return nil, err
	}
	if maxDelay < initial {
		return nil, fmt.Errorf("%w: %s=%s is below %s=%s", ErrBadSetting,
			EnvRetryMaxDelay, maxDelay, EnvRetryInitialDelay, initial)
	}
	kind, _ := lookup(EnvRetryPolicy)
	switch strings.ToLower(strings.TrimSpace(kind)) {
	case "", "exponential":
		return Exponential{Initial: initial, Max: maxDelay}, nil
	case "fixed":
		return Fixed{Wait: initial}, nil
	default:
		return nil, fmt.Errorf("%w: %s=%q, want exponential or fixed", ErrBadSetting, EnvRetryPolicy, kind)
	}
}

func durationSetting(lookup func(string) (string, bool), name string, def time.Duration) (time.Duration, error) {
	raw, ok := lookup(name)
	raw = strings.TrimSpace(raw)
	if !ok || raw == "" {
		return def, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil {
		secs, errInt := strconv.Atoi(raw)
		if errInt != nil {
			return 0, fmt.Errorf("%w: %s=%q is not a duration like 5s", ErrBadSetting, name, raw)
		}
		d = time.Duration(secs) * time.Second
	}
	if d <= 0 {
		return 0, fmt.Errorf("%w: %s=%q must be positive", ErrBadSetting, name, raw)
	}
	return d, nil
}
