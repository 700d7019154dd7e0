package main

import (
	"testing"
	"time"
)

func TestTrailAtIsTheFirstPointNotBefore(t *testing.T) {
	tr := &cpuTrail{points: []cpuPoint{{at: 10 * time.Millisecond, self: 1}, {at: 30 * time.Millisecond, self: 2}, {at: 50 * time.Millisecond, self: 3}}}
	for _, c := range []struct {
		d    time.Duration
		want time.Duration
	}{{0, 1}, {10 * time.Millisecond, 1}, {11 * time.Millisecond, 2}, {50 * time.Millisecond, 3}, {time.Second, 3}} {
		if got := tr.at(c.d).self; got != c.want {
			t.Errorf("at(%v).self = %v, want %v", c.d, got, c.want)
		}
	}
	if p := (cpuPoint{self: 3 * time.Second, hooks: 4 * time.Second, cluster: time.Second}); p.floor(2) != 4*time.Second {
		t.Errorf("floor = %v, want 4s", p.floor(2))
	}
}
