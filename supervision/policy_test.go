package supervision_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/supervision"
)

func fixedJitter(d time.Duration) func(time.Duration) time.Duration {
	return func(time.Duration) time.Duration { return d }
}

func TestExponentialDelays(t *testing.T) {
	p := supervision.Exponential{Initial: 5 * time.Second, Max: 32 * time.Second, Jitter: fixedJitter(250 * time.Millisecond)}
	want := []time.Duration{
		5 * time.Second,                       // first retry: the initial delay, no jitter
		7*time.Second + 250*time.Millisecond,  // 5 + 2^1
		9*time.Second + 250*time.Millisecond,  // 5 + 2^2
		13*time.Second + 250*time.Millisecond, // 5 + 2^3
		21*time.Second + 250*time.Millisecond, // 5 + 2^4
		32 * time.Second,                      // 5 + 2^5 = 37: capped
		32 * time.Second,
	}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w {
			t.Errorf("attempt %d: delay %s, want %s", i+1, got, w)
		}
	}
	if got := p.Delay(1000); got != 32*time.Second {
		t.Errorf("attempt 1000: delay %s, want the cap (no overflow)", got)
	}
}

func TestExponentialRandomJitterStaysBelowOneSecond(t *testing.T) {
	p := supervision.Exponential{Initial: 5 * time.Second, Max: time.Hour}
	for range 1000 {
		d := p.Delay(3)
		if d < 9*time.Second || d >= 10*time.Second {
			t.Fatalf("attempt 3: delay %s outside [9s, 10s)", d)
		}
	}
}

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestPolicyFromEnv(t *testing.T) {
	cases := []struct {
		name string
		env  func(string) (string, bool)
		want supervision.Policy
	}{
		{"defaults", env(), supervision.Exponential{Initial: 5 * time.Second, Max: 32 * time.Second}},
		{"exponential tuned", env("RETRY_POLICY", "Exponential", "RETRY_INITIAL_DELAY", "2s", "RETRY_MAX_DELAY", "1m"),
			supervision.Exponential{Initial: 2 * time.Second, Max: time.Minute}},
		{"fixed in whole seconds", env("RETRY_POLICY", "fixed", "RETRY_INITIAL_DELAY", "3"), supervision.Fixed{Wait: 3 * time.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := supervision.PolicyFromEnv(c.env)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("policy %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestPolicyFromEnvErrorsNameTheSetting(t *testing.T) {
	cases := map[string]struct {
		env  func(string) (string, bool)
		name string
	}{
		"unknown policy": {env("RETRY_POLICY", "linear"), "RETRY_POLICY"},
		"bad initial":    {env("RETRY_INITIAL_DELAY", "soon"), "RETRY_INITIAL_DELAY"},
		"negative max":   {env("RETRY_MAX_DELAY", "-1s"), "RETRY_MAX_DELAY"},
		"max below init": {env("RETRY_INITIAL_DELAY", "10s", "RETRY_MAX_DELAY", "5s"), "RETRY_MAX_DELAY"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := supervision.PolicyFromEnv(c.env)
			if !errors.Is(err, supervision.ErrBadSetting) {
				t.Fatalf("error %v, want ErrBadSetting", err)
			}
			if !strings.Contains(err.Error(), c.name) {
				t.Fatalf("error %q does not name %s", err, c.name)
			}
		})
	}
}
